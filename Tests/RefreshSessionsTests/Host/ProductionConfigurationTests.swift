import Testing

@testable import RefreshSessions

/// The host's tests run under the limits and timings production runs with (`SessionHost.Configuration`'s one
/// home of the server's defaults; `DefaultsTests` checks that the server reads them from there).
@Suite struct ProductionConfigurationTests {
    @Test func theTestTransportsHostRunsUnderProductionsValues() {
        #expect(TestTransport().host.configuration == .production)
    }
}
