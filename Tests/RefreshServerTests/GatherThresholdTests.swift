import Testing

@testable import RefreshServer

/// From how many open connections the loop gathers a turn's inputs (`serve --gather-from`, ``SessionPrefetch``).
@Suite struct GatherThresholdTests {
    @Test func byDefaultAsManyConnectionsAsFillTheL2Cache() {
        #expect(SessionPrefetch.cacheBytes > 0)
        #expect(SessionPrefetch.fromConnections == SessionPrefetch.cacheBytes / SessionPrefetch.bytesPerConnection)
        // Any cache of 256 KiB or more: a few connections never gather, a thousand always do.
        #expect((32...1_000).contains(SessionPrefetch.fromConnections) || SessionPrefetch.cacheBytes > 8 << 20)
    }

    @Test func theConfigurationTakesZeroOrMoreAndRefusesLess() throws {
        var configuration = ServerConfiguration()
        #expect(configuration.gatherFromConnections == nil)
        configuration.gatherFromConnections = 0
        try configuration.validate()
        configuration.gatherFromConnections = 5_000
        try configuration.validate()
        configuration.gatherFromConnections = -1
        let error = #expect(throws: ServerError.self) { try configuration.validate() }
        #expect(error?.description == "--gather-from must be 0 or more connections (got -1)")
    }
}
