/// Takes `step` until `done` holds, for about `seconds`; returns whether it held.
///
/// Once the time is up it takes one step more before it gives up: in the full suite the test
/// process can be held up for longer than a deadline (7 s was seen), and what arrived meanwhile
/// must still be read, not judged missing by a loop that stopped before reading it.
func keepTrying(seconds: Double, until done: () throws -> Bool, _ step: () throws -> Void) rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while try !done() {
        let late = ContinuousClock.now >= deadline
        try step()
        if late { return try done() }
    }
    return true
}
