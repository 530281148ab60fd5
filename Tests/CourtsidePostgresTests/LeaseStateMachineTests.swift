import CourtsidePostgres
import Testing

/// The lease's machine alone: every instant is passed in, from a fixed start, so no test sleeps.
struct LeaseStateMachineTests {
    typealias Machine = LeaseStateMachine
    let t0 = ContinuousClock.now
    let lease = Duration.milliseconds(1000)

    func held(term: Int64 = 1) -> Machine {
        var machine = Machine(standbyFor: lease)
        _ = machine.acquired(term: term, sent: t0, now: t0)
        return machine
    }

    @Test("a standby asks again just after the holder's lease would run out, at least every quarter lease")
    func standbySchedule() {
        var machine = Machine(standbyFor: lease)
        #expect(machine.state == .standby(.unknown) && !machine.mayServe(at: t0))
        #expect(
            machine.heldByAnother(term: 3, endpoint: "tcp://a:5555", expiresIn: .milliseconds(100), now: t0)
                == .scheduleAttempt(at: t0 + .milliseconds(105)))
        #expect(machine.status == .standby(term: 3, endpoint: "tcp://a:5555"))
        #expect(
            machine.heldByAnother(term: 3, endpoint: "tcp://a:5555", expiresIn: .milliseconds(900), now: t0)
                == .scheduleAttempt(at: t0 + .milliseconds(250)))
        #expect(machine.unreachable(now: t0) == .scheduleAttempt(at: t0 + .milliseconds(250)))
        #expect(machine.state == .standby(.unreachable))
        // A standby never renews nor steps down.
        #expect(machine.tick(now: t0 + .seconds(10)) == .none)
    }

    @Test("taken, the lease is renewed a quarter lease after the renewal it counts from, and serves until 0.9 of it")
    func renewalSchedule() {
        var machine = Machine(standbyFor: lease)
        #expect(machine.acquired(term: 1, sent: t0, now: t0 + .milliseconds(10)) == .scheduleRenewal(at: t0 + .milliseconds(250)))
        #expect(machine.mayServe(at: t0 + .milliseconds(899)) && !machine.mayServe(at: t0 + .milliseconds(900)))
        #expect(machine.tick(now: t0 + .milliseconds(100)) == .scheduleRenewal(at: t0 + .milliseconds(250)))
        #expect(machine.tick(now: t0 + .milliseconds(250)) == .renewNow)
        #expect(machine.renewalSent(at: t0 + .milliseconds(250)) == .awaitRenewal(until: t0 + .milliseconds(900)))
        // While it is on its way, nothing else is sent.
        #expect(machine.tick(now: t0 + .milliseconds(300)) == .awaitRenewal(until: t0 + .milliseconds(900)))
        #expect(
            machine.renewalAnswered(sent: t0 + .milliseconds(250), now: t0 + .milliseconds(260))
                == .scheduleRenewal(at: t0 + .milliseconds(500)))
        #expect(machine.status == .held(term: 1, until: t0 + .milliseconds(1150)))
    }

    @Test("a lease whose taking waited long is renewed at once")
    func lateTaking() {
        var machine = Machine(standbyFor: lease)
        #expect(machine.acquired(term: 2, sent: t0, now: t0 + .milliseconds(600)) == .renewNow)
    }

    @Test("a commit's renewal postpones the keeper's, and counts while the keeper's is on its way")
    func commitsRenew() {
        var machine = held()
        #expect(
            machine.renewalAnswered(sent: t0 + .milliseconds(200), byKeeper: false, now: t0 + .milliseconds(210))
                == .scheduleRenewal(at: t0 + .milliseconds(450)))
        _ = machine.renewalSent(at: t0 + .milliseconds(450))
        #expect(
            machine.renewalAnswered(sent: t0 + .milliseconds(460), byKeeper: false, now: t0 + .milliseconds(470))
                == .awaitRenewal(until: t0 + .milliseconds(1360)))
        // An answer sent earlier than the one counted moves nothing back.
        _ = machine.renewalAnswered(sent: t0 + .milliseconds(450), now: t0 + .milliseconds(480))
        #expect(machine.status == .held(term: 1, until: t0 + .milliseconds(1360)))
    }

    @Test("a renewal on its way when the lease runs out: stepped down at that instant, whatever the database does")
    func runsOut() {
        var machine = held()
        _ = machine.tick(now: t0 + .milliseconds(250))
        _ = machine.renewalSent(at: t0 + .milliseconds(250))
        #expect(machine.tick(now: t0 + .milliseconds(899)) == .awaitRenewal(until: t0 + .milliseconds(900)))
        #expect(machine.tick(now: t0 + .milliseconds(900)) == .stepDown(term: 1, reason: .ranOut))
        #expect(machine.status == .fenced(term: 1, reason: .ranOut) && !machine.mayServe(at: t0 + .milliseconds(900)))
        // An answer that comes after brings nothing back.
        #expect(machine.renewalAnswered(sent: t0 + .milliseconds(250), now: t0 + .milliseconds(950)) == .none)
        #expect(machine.tick(now: t0 + .seconds(2)) == .stepDown(term: 1, reason: .ranOut))
    }

    @Test("a failed renewal is tried again a tenth of a lease later, while the lease lasts")
    func failedRenewal() {
        var machine = held()
        _ = machine.renewalSent(at: t0 + .milliseconds(250))
        #expect(machine.renewalFailed(now: t0 + .milliseconds(300)) == .scheduleRenewal(at: t0 + .milliseconds(400)))
        #expect(machine.tick(now: t0 + .milliseconds(400)) == .renewNow)
        _ = machine.renewalSent(at: t0 + .milliseconds(400))
        #expect(machine.renewalFailed(now: t0 + .milliseconds(850)) == .scheduleRenewal(at: t0 + .milliseconds(900)))
        #expect(machine.tick(now: t0 + .milliseconds(900)) == .stepDown(term: 1, reason: .ranOut))
    }

    @Test("a refused renewal (the term moved on) steps down at once, for good")
    func refused() {
        var machine = held(term: 4)
        #expect(machine.renewalRefused() == .stepDown(term: 4, reason: .takenOver))
        #expect(!machine.mayServe(at: t0))
        #expect(machine.close() == .none && machine.renewalRefused() == .none)
        #expect(machine.status == .fenced(term: 4, reason: .takenOver))
    }

    @Test("closing hands a held lease back, once; a lost one is not handed back")
    func closing() {
        var machine = held(term: 2)
        #expect(machine.close() == .handBack(term: 2))
        #expect(machine.status == .released(term: 2) && machine.close() == .none && machine.tick(now: t0) == .none)
        var cut = held(term: 3)
        #expect(cut.cut() == .stepDown(term: 3, reason: .cut))
        #expect(cut.close() == .none && !cut.mayServe(at: t0))
    }

    @Test("a daemon alone on its log always serves, and never renews")
    func standalone() {
        var machine = Machine.standalone
        #expect(machine.mayServe(at: t0) && machine.tick(now: t0 + .seconds(60)) == .none && machine.close() == .none)
        #expect(machine.status == .none)
    }
}
