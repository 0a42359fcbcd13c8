import RefreshAccess
import Testing

@testable import RefreshServer

@Suite struct SocketLimitsTests {
    let proxies = try! TrustedProxies.parse(["10.0.0.1"]).get()

    @Test func oneAddressHoldsAtMostItsShare() throws {
        var limits = SocketLimits(maxPerAddress: 2, limitLoopback: false, proxies: proxies)
        let key = try #require(limits.key(for: IPAddress("192.168.1.40")))
        limits.opened(key)
        limits.opened(key)
        #expect(!limits.admits(key))
        #expect(limits.admits(try #require(limits.key(for: IPAddress("192.168.1.41")))))
        limits.closed(key)
        #expect(limits.admits(key))
    }

    @Test func loopbackAndTheTrustedProxiesAreExempt() {
        let open = SocketLimits(maxPerAddress: 2, limitLoopback: false, proxies: proxies)
        #expect(open.key(for: IPAddress("127.0.0.1")) == nil)
        #expect(open.key(for: IPAddress("::ffff:127.0.0.1")) == nil)
        #expect(open.key(for: IPAddress("10.0.0.1")) == nil)
        #expect(open.key(for: nil) == nil)
        let strict = SocketLimits(maxPerAddress: 2, limitLoopback: true, proxies: proxies)
        #expect(strict.key(for: IPAddress("127.0.0.1")) == "127.0.0.1")
    }
}
