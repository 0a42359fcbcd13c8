import Testing

@testable import RefreshAccess

@Suite struct TrustedProxiesTests {
    let local = try! TrustedProxies.parse(["127.0.0.1", "::1"]).get()

    @Test func anUntrustedPeerIsTheClientWhateverItsHeadersSay() {
        let client = local.client(peer: "10.0.0.9", headerValue: "127.0.0.1")
        #expect(client.address == IPAddress("10.0.0.9"))
        #expect(client.proxy == nil)
        #expect(!client.isLoopback)
    }

    @Test func aTrustedProxyNamesTheClient() {
        let client = local.client(peer: "127.0.0.1", headerValue: "192.168.1.40")
        #expect(client.address == IPAddress("192.168.1.40"))
        #expect(client.proxy == IPAddress("127.0.0.1"))
        #expect(!client.isLoopback)
        #expect(client.description == "192.168.1.40 via 127.0.0.1")
    }

    @Test func aClientCannotClaimLoopbackThroughTheProxy() {
        // The client sent `X-Forwarded-For: 127.0.0.1`; the proxy appended the address it saw.
        let client = local.client(peer: "127.0.0.1", headerValue: "127.0.0.1, 192.168.1.40")
        #expect(client.address == IPAddress("192.168.1.40"))
        #expect(!client.isLoopback)
    }

    @Test func aRequestThatBeganOnThisMachineStaysLocal() {
        #expect(local.client(peer: "127.0.0.1", headerValue: "127.0.0.1").isLoopback)
        #expect(local.client(peer: "::1", headerValue: "::1, 127.0.0.1").isLoopback)
    }

    @Test func aProxyThatNamesNobodyLeavesTheClientWithoutAnAddress() {
        for value in [nil, "", "unknown", "_hidden", " , "] {
            let client = local.client(peer: "127.0.0.1", headerValue: value)
            #expect(client.address == nil, "\(value ?? "nil")")
            #expect(!client.isLoopback)
            #expect(client.key == "unnamed@127.0.0.1")
        }
    }

    @Test func chainsAreReadFromTheRightSkippingTrustedHops() throws {
        let proxies = try TrustedProxies.parse(["127.0.0.1", "10.0.0.0/8"]).get()
        let client = proxies.client(peer: "127.0.0.1", headerValue: "6.6.6.6, 203.0.113.50, 10.1.1.1")
        #expect(client.address == IPAddress("203.0.113.50"))
    }

    @Test func portsAndBracketsAreTakenOff() {
        #expect(local.client(peer: "127.0.0.1", headerValue: "192.168.1.40:51234").address == IPAddress("192.168.1.40"))
        #expect(local.client(peer: "127.0.0.1", headerValue: "[fd00::7]:443").address == IPAddress("fd00::7"))
    }

    @Test func forwardedIsReadOnlyWhenChosen() throws {
        let forwarded = try TrustedProxies.parse(["127.0.0.1"], header: .forwarded).get()
        let value = #"for=127.0.0.1, for="[2001:db8:cafe::17]:4711";proto=https, for=192.0.2.60;by=203.0.113.43"#
        #expect(forwarded.client(peer: "127.0.0.1", headerValue: value).address == IPAddress("192.0.2.60"))
        #expect(forwarded.client(peer: "127.0.0.1", headerValue: "proto=http").address == nil)
        #expect(TrustedProxies.forwardedHops(#"For="[::1]:80""#) == ["::1"])
    }

    @Test func badEntriesAreNamed() {
        #expect(TrustedProxies.parse(["127.0.0.1", "proxy.local"]) == .failure(.init(entry: "proxy.local")))
    }
}
