import Testing

@testable import RefreshServer

@Suite("ConnectionLimits")
struct ConnectionLimitsTests {
    @Test func theTotalLimitApplies() {
        var limits = ConnectionLimits(maxTotal: 3, maxPerAddress: 10, limitLoopback: false)
        for address in ["10.0.0.1", "10.0.0.2", "127.0.0.1"] {
            #expect(limits.check(address) == .admit)
            limits.opened(address)
        }
        #expect(limits.check("10.0.0.9") == .refuseTotal)
        #expect(limits.check("127.0.0.1") == .refuseTotal)
        limits.closed("10.0.0.2")
        #expect(limits.check("10.0.0.9") == .admit)
    }

    @Test func thePerAddressLimitApplies() {
        var limits = ConnectionLimits(maxTotal: 100, maxPerAddress: 2, limitLoopback: false)
        limits.opened("192.168.1.20")
        limits.opened("192.168.1.20")
        #expect(limits.check("192.168.1.20") == .refusePerAddress)
        #expect(limits.check("192.168.1.21") == .admit)
        #expect(limits.count(for: "192.168.1.20") == 2)
        limits.closed("192.168.1.20")
        #expect(limits.check("192.168.1.20") == .admit)
    }

    @Test func loopbackIsExemptUnlessAsked() {
        var open = ConnectionLimits(maxTotal: 100, maxPerAddress: 1, limitLoopback: false)
        var strict = ConnectionLimits(maxTotal: 100, maxPerAddress: 1, limitLoopback: true)
        for address in ["127.0.0.1", "::1", "::ffff:127.0.0.1"] {
            open.opened(address)
            strict.opened(address)
        }
        #expect(open.check("127.0.0.1") == .admit)
        #expect(open.check("::1") == .admit)
        #expect(strict.check("127.0.0.1") == .refusePerAddress)
    }

    @Test func anIPv4PeerOfADualStackListenerIsOneAddress() {
        var limits = ConnectionLimits(maxTotal: 100, maxPerAddress: 1, limitLoopback: false)
        limits.opened("::ffff:10.1.2.3")
        #expect(limits.check("10.1.2.3") == .refusePerAddress)
        #expect(ConnectionLimits.normalize("::FFFF:10.1.2.3") == "10.1.2.3")
        #expect(ConnectionLimits.normalize("::ffff:abcd") == "::ffff:abcd")
    }

    @Test func closingMoreThanWasOpenedNeverGoesNegative() {
        var limits = ConnectionLimits(maxTotal: 1, maxPerAddress: 1, limitLoopback: true)
        limits.closed("10.0.0.1")
        #expect(limits.total == 0)
        #expect(limits.check("10.0.0.1") == .admit)
    }
}
