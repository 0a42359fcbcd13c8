import Testing

@testable import RefreshAccess

@Suite("OriginPolicy")
struct OriginPolicyTests {
    let policy = OriginPolicy(
        ownHosts: ["localhost", "127.0.0.1", "::1", "192.168.1.5", "mybox", "mybox.local"], port: 8080,
        allowedOrigins: ["https://friend.example", "http://10.0.0.2:3000"])

    @Test(arguments: [
        "http://127.0.0.1:8080", "http://localhost:8080", "http://LOCALHOST:8080", "http://[::1]:8080",
        "http://192.168.1.5:8080", "http://mybox.local:8080", "https://friend.example",
        "https://friend.example:443", "http://10.0.0.2:3000", "http://192.168.1.5:8080/",
    ])
    func accepted(origin: String) {
        #expect(policy.decide(origin: origin) == .accept)
    }

    @Test(arguments: [
        "http://evil.example", "http://evil.example:8080", "http://127.0.0.1:8081", "http://127.0.0.1",
        "https://127.0.0.1:8080", "null", "file://", "", "http://", "http://127.0.0.1:8080/path",
        "http://127.0.0.1:8080@evil.example", "http://user@127.0.0.1:8080", "http://127.0.0.1.evil.example:8080",
        "http://friend.example", "https://friend.example:8443", "http://10.0.0.2", "javascript://127.0.0.1:8080",
        "http://127.0.0.1:0", "http://127.0.0.1:99999", "http://127.0.0.1:8080?x", "http://[::1:8080",
        "http://-bad.example:8080", "http://a b:8080",
    ])
    func refused(origin: String) {
        guard case .refuse = policy.decide(origin: origin) else {
            Issue.record("\(origin) was accepted")
            return
        }
    }

    /// `--public-port 9000`: a proxy on this machine (`refreshkit link`) serves the page on port 9000.
    @Test func aPublicPortMakesOwnHostsOnItOwnOrigins() {
        let proxied = OriginPolicy(
            ownHosts: ["localhost", "127.0.0.1", "192.168.1.5"], port: 8080, publicPorts: [9000], allowedOrigins: [])
        #expect(proxied.decide(origin: "http://127.0.0.1:9000") == .accept)
        #expect(proxied.decide(origin: "http://192.168.1.5:9000") == .accept)
        #expect(proxied.decide(origin: "http://localhost:8080") == .accept)
        for origin in ["http://evil.example:9000", "https://127.0.0.1:9000", "http://127.0.0.1:9001"] {
            guard case .refuse = proxied.decide(origin: origin) else {
                Issue.record("\(origin) was accepted")
                continue
            }
        }
        // Without it, the proxy's port is somebody else's origin.
        guard case .refuse = policy.decide(origin: "http://127.0.0.1:9000") else {
            Issue.record("a port that was not given was accepted")
            return
        }
    }

    /// `--public-port 8443 --public-tls`: HAProxy terminates TLS on 8443 (`make cluster TLS=1`), the server is plain
    /// http behind it.
    @Test func aPublicPortBehindTLSTakesHttpsOriginsThereAndOnlyThere() {
        let balanced = OriginPolicy(
            ownHosts: ["localhost", "192.168.1.5"], port: 8081, publicPorts: [8443], allowedOrigins: [],
            publicScheme: "https")
        #expect(balanced.decide(origin: "https://192.168.1.5:8443") == .accept)
        #expect(balanced.decide(origin: "http://localhost:8081") == .accept)
        for origin in ["http://192.168.1.5:8443", "https://localhost:8081", "https://evil.example:8443"] {
            guard case .refuse = balanced.decide(origin: origin) else {
                Issue.record("\(origin) was accepted")
                continue
            }
        }
    }

    @Test func noOriginIsNotABrowserAndIsAccepted() {
        #expect(policy.decide(origin: nil) == .accept)
    }

    @Test func anOverlongOriginIsRefused() {
        guard case .refuse = policy.decide(origin: "http://" + String(repeating: "a", count: 2000) + ".example") else {
            Issue.record("accepted")
            return
        }
    }

    @Test func originsAreNormalised() throws {
        let origin = try #require(OriginPolicy.Origin("HTTPS://Friend.Example"))
        #expect(origin.description == "https://friend.example:443")
        let ipv6 = try #require(OriginPolicy.Origin("http://[::1]:8080"))
        #expect(ipv6.host == "::1" && ipv6.port == 8080)
        #expect(OriginPolicy.Origin("ws://a.example") == OriginPolicy.Origin("http://a.example:80"))
    }

    @Test func invalidAllowOriginValuesAreReported() {
        #expect(
            OriginPolicy.invalidOrigins(["https://ok.example", "nope", "http://x:1/path"]) == [
                "nope", "http://x:1/path",
            ])
    }

    @Test func theMachineKnowsItsOwnNames() {
        let hosts = OriginPolicy.localHosts(bound: "0.0.0.0")
        #expect(hosts.contains("localhost") && hosts.contains("127.0.0.1") && hosts.contains("::1"))
        #expect(!hosts.contains("0.0.0.0"))
        #expect(OriginPolicy.localHosts(bound: "10.9.8.7").contains("10.9.8.7"))
    }
}
