import RefreshWire
import Testing

@testable import RefreshSessions

/// Every transition of a connection's life, and the ones that are refused.
@Suite struct ConnectionLifecycleTests {
    @Test func anOpenConnectionClosesWithTheFirstReasonDecided() {
        var life = ConnectionLifecycle.open
        #expect(life.acceptsInput && life.mayWrite)
        let first = life.requestClose(.messageTooBig)
        let second = life.requestClose(.sessionTaken)
        #expect(first && !second, "the first reason stands")
        #expect(!life.acceptsInput && life.mayWrite)
        let close = life.issueClose()
        #expect(close == .messageTooBig)
        #expect(life == .closeIssued && !life.mayWrite)
        let again = life.issueClose()
        #expect(again == nil)
        life.close()
        let killed = life.kill()
        #expect(life == .closed && !killed)
    }

    @Test func aDrainingConnectionWritesWhatIsQueuedThenGoesAwayWith1001() {
        var life = ConnectionLifecycle.open
        let drained = life.drain()
        let again = life.drain()
        #expect(drained && !again)
        #expect(!life.acceptsInput && life.mayWrite && !life.takesSessionOutput)
        let close = life.issueClose()
        #expect(close == .goingAway)
    }

    @Test func anOpenConnectionHasNoCloseToIssue() {
        var life = ConnectionLifecycle.open
        let close = life.issueClose()
        #expect(close == nil && life == .open)
    }

    @Test(arguments: [ConnectionLifecycle.open, .draining, .closeRequested(.policyViolation)])
    func killingSkipsTheHandshakeFromAnyLiveState(start: ConnectionLifecycle) {
        var life = start
        let killed = life.kill()
        #expect(killed && life == .closeIssued)
    }
}
