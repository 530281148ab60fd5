/// What a courtsided is among several on one PostgreSQL database: the states that
/// ``CourtsideDaemon/run(_:configurationPath:serverCertificate:metrics:logger:)`` goes through.
enum DaemonRole {
    /// Waiting for the lease, answering `not_active`; `steppedDownAt` when it held the lease before.
    case standby(steppedDownAt: ContinuousClock.Instant?)
    /// Holding the lease of `term`, which `lease` keeps: serving.
    case active(LeaseService, term: Int64)
    /// Lost the lease: it served nothing from that moment, and has closed what it held.
    case steppedDown(LeaseService.SteppedDown)
}
