import RefreshSessions
import Testing

@testable import RefreshServer

/// Every default of the server's limits and timings has one home, the session host's configuration
/// (`SessionHost.Configuration.production`): the server's configuration holds that value and `refreshkit serve`'s
/// options read it, and the host's own tests (`TestTransport`) run under it. So what the tests check is what runs.
@Suite struct DefaultsTests {
    @Test func theServersDefaultsAreTheHostsOwn() {
        var host = ServerConfiguration().hostConfiguration()
        // The process's name is not a default of the rules: the pid, and no prefix without --node or --store.
        #expect(!host.node.isEmpty && !host.prefixesIDs)
        host.node = ""
        #expect(host == SessionHost.Configuration.production)
        #expect(SessionHost.Configuration() == .production)
    }

    /// `serve --idle-timeout` sets the hang-up time and pings after half of it: its default gives the host's
    /// ping interval too.
    @Test func theIdleTimeoutsDefaultGivesTheHostsPingInterval() {
        let production = SessionHost.Configuration.production
        #expect(max(1, production.hangupSeconds / 2) == production.pingIntervalSeconds)
    }

    /// The values production runs with (docs/OPERATIONS.md): a change here is a change of behaviour.
    @Test func productionsValues() {
        let production = SessionHost.Configuration.production
        #expect(production.maxQueuedMessages == 4096)
        #expect(production.pingIntervalSeconds == 10 && production.hangupSeconds == 20)
        #expect(production.maxTraceBytesTotal == 64 << 20)
        #expect(production.messagesPerSecond == 300 && production.messageBurst == 600)
    }
}
