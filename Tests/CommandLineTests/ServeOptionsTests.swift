import ArgumentParser
import RefreshServer
import Testing

@testable import refreshkit

/// `refreshkit serve`'s flags as the command line reads them: what a pair of TLS files needs, and what the hardening
/// flags set in the server's configuration (docs/HTTPS.md, docs/HARDENING.md).
@Suite struct ServeOptionsTests {
    @Test func aCertificateNeedsItsKeyAndTheCANeedsBoth() throws {
        let refusals: [([String], String)] = [
            (["--tls-cert", "server.pem"], "--tls-cert needs --tls-key"),
            (["--tls-key", "server-key.pem"], "--tls-key needs --tls-cert"),
            (["--tls-ca", "ca.pem"], "--tls-ca needs --tls-cert and --tls-key"),
        ]
        for (arguments, message) in refusals {
            #expect(throws: (any Error).self) { try TLSOptions.parse(arguments) }
            #expect(TLSOptions.message(for: refusal(of: arguments)) == message, "\(arguments)")
        }
        let pair = try TLSOptions.parse([
            "--tls-cert", "server.pem", "--tls-key", "server-key.pem", "--tls-ca", "ca.pem",
        ])
        #expect(
            pair.files
                == TLSFiles(certificate: "server.pem", privateKey: "server-key.pem", certificateAuthority: "ca.pem"))
        #expect(try TLSOptions.parse([]).files == nil, "plain http without the flags")
    }

    @Test func theIdleTimeoutSetsTheHangUpAndPingsAtHalfOfIt() throws {
        var configuration = ServerConfiguration()
        try HardeningOptions.parse(["--idle-timeout", "10"]).apply(to: &configuration)
        #expect(configuration.sessions.hangupSeconds == 10)
        #expect(configuration.sessions.pingIntervalSeconds == 5)
        try HardeningOptions.parse(["--idle-timeout", "1"]).apply(to: &configuration)
        #expect(configuration.sessions.pingIntervalSeconds == 1, "never a ping interval below a second")
    }

    @Test func theFrontDoorFlagsReachTheConfiguration() throws {
        var configuration = ServerConfiguration()
        try HardeningOptions.parse([
            "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "192.168.1.2", "--client-address-header", "forwarded",
            "--rate-limit-per-address", "0", "--max-sessions-per-address", "3", "--limit-loopback",
        ]).apply(to: &configuration)
        #expect(configuration.hardening.trustedProxies == ["10.0.0.0/8", "192.168.1.2"])
        #expect(configuration.hardening.clientAddressHeader == .forwarded)
        #expect(configuration.sessions.messagesPerSecondPerAddress == 0)
        #expect(configuration.sessions.maxSessionsPerAddress == 3)
        #expect(configuration.hardening.limitLoopback && configuration.sessions.limitLoopback)
        #expect(throws: (any Error).self) { try HardeningOptions.parse(["--client-address-header", "x-real-ip"]) }
    }

    private func refusal(of arguments: [String]) -> any Error {
        do {
            _ = try TLSOptions.parse(arguments)
        } catch {
            return error
        }
        return CancellationError()
    }
}
