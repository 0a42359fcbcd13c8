import RefreshAccess
import Testing

@testable import RefreshServer

@Suite("ConnectionLimits")
struct ConnectionLimitsTests {
    @Test func theTotalLimitApplies() {
        var limits = ConnectionLimits(maxTotal: 3, maxPerAddress: 10, limitLoopback: false)
        for address in ["10.0.0.1", "10.0.0.2", "127.0.0.1"] {
            #expect(limits.check(.init(peer: address)) == .admit)
            limits.opened(.init(peer: address))
        }
        #expect(limits.check(.init(peer: "10.0.0.9")) == .refuseTotal)
        #expect(limits.check(.init(peer: "127.0.0.1")) == .refuseTotal)
        limits.closed(key: ClientAddress(peer: "10.0.0.2").key)
        #expect(limits.check(.init(peer: "10.0.0.9")) == .admit)
    }

    @Test func thePerAddressLimitApplies() {
        var limits = ConnectionLimits(maxTotal: 100, maxPerAddress: 2, limitLoopback: false)
        limits.opened(.init(peer: "192.168.1.20"))
        limits.opened(.init(peer: "192.168.1.20"))
        #expect(limits.check(.init(peer: "192.168.1.20")) == .refusePerAddress)
        #expect(limits.check(.init(peer: "192.168.1.21")) == .admit)
        #expect(limits.count(for: .init(peer: "192.168.1.20")) == 2)
        limits.closed(key: ClientAddress(peer: "192.168.1.20").key)
        #expect(limits.check(.init(peer: "192.168.1.20")) == .admit)
    }

    @Test func loopbackIsExemptUnlessAsked() {
        var open = ConnectionLimits(maxTotal: 100, maxPerAddress: 1, limitLoopback: false)
        var strict = ConnectionLimits(maxTotal: 100, maxPerAddress: 1, limitLoopback: true)
        for address in ["127.0.0.1", "::1", "::ffff:127.0.0.1"] {
            open.opened(.init(peer: address))
            strict.opened(.init(peer: address))
        }
        #expect(open.check(.init(peer: "127.0.0.1")) == .admit)
        #expect(open.check(.init(peer: "::1")) == .admit)
        #expect(strict.check(.init(peer: "127.0.0.1")) == .refusePerAddress)
    }

    @Test func anIPv4PeerOfADualStackListenerIsOneAddress() {
        var limits = ConnectionLimits(maxTotal: 100, maxPerAddress: 1, limitLoopback: false)
        limits.opened(.init(peer: "::ffff:10.1.2.3"))
        #expect(limits.check(.init(peer: "10.1.2.3")) == .refusePerAddress)
        #expect(ClientAddress(peer: "::FFFF:10.1.2.3").key == "10.1.2.3")
    }

    @Test func clientsBehindATrustedProxyAreCountedOneByOneAndNeverAsLoopback() throws {
        var limits = ConnectionLimits(maxTotal: 100, maxPerAddress: 1, limitLoopback: false)
        let proxies = try TrustedProxies.parse(["127.0.0.1"]).get()
        let first = proxies.client(peer: "127.0.0.1", headerValue: "10.0.0.7")
        let second = proxies.client(peer: "127.0.0.1", headerValue: "10.0.0.8")
        limits.opened(first)
        #expect(limits.check(first) == .refusePerAddress)
        #expect(limits.check(second) == .admit)
        let unnamed = proxies.client(peer: "127.0.0.1", headerValue: nil)
        limits.opened(unnamed)
        #expect(limits.check(unnamed) == .refusePerAddress)
    }

    @Test func closingMoreThanWasOpenedNeverGoesNegative() {
        var limits = ConnectionLimits(maxTotal: 1, maxPerAddress: 1, limitLoopback: true)
        limits.closed(key: ClientAddress(peer: "10.0.0.1").key)
        #expect(limits.total == 0)
        #expect(limits.check(.init(peer: "10.0.0.1")) == .admit)
    }
}
