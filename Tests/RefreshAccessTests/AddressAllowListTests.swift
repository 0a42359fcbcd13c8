import Testing

@testable import RefreshAccess

@Suite struct AddressAllowListTests {
    @Test(arguments: ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"])
    func loopbackIsAlwaysAllowed(peer: String) {
        #expect(AddressAllowList().allows(peer))
    }

    @Test(arguments: ["10.0.0.5", "192.168.1.23", "::ffff:10.0.0.5", "fd00::1", "?", ""])
    func anythingElseIsNotUnlessNamed(peer: String) {
        #expect(!AddressAllowList().allows(peer))
    }

    @Test func namedAddressesAndNetworksAreAllowed() throws {
        let list = try AddressAllowList.parse(["10.0.0.5", "192.168.0.0/16", "fd00::/8"]).get()
        #expect(list.allows("10.0.0.5") && !list.allows("10.0.0.6"))
        #expect(list.allows("192.168.200.1") && !list.allows("192.169.0.1"))
        #expect(list.allows("::ffff:192.168.1.1"), "an IPv4 peer of a dual-stack listener")
        #expect(list.allows("fd12:3456::1") && !list.allows("fe80::1"))
    }

    @Test func aPrefixNeedNotBeAByteBoundary() throws {
        let list = try AddressAllowList.parse(["10.0.0.0/12"]).get()
        #expect(list.allows("10.15.255.255") && !list.allows("10.16.0.0"))
        #expect(try AddressAllowList.parse(["0.0.0.0/0"]).get().allows("8.8.8.8"))
    }

    @Test(arguments: ["10.0.0.0/33", "fd00::/129", "10.0.0", "example.org", "10.0.0.1/x", "/8", ""])
    func anUnreadableEntryIsNamed(entry: String) {
        #expect(AddressAllowList.parse(["127.0.0.1", entry]) == .failure(.init(entry: entry)))
    }
}
