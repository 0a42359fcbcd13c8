import Testing

@testable import RefreshAccess

@Suite struct IPAddressTests {
    @Test func anIPv4AddressMappedIntoIPv6IsTheIPv4Address() throws {
        let mapped = try #require(IPAddress("::ffff:10.1.2.3"))
        #expect(mapped == IPAddress("10.1.2.3"))
        #expect(mapped.description == "10.1.2.3")
        #expect(IPAddress("[::1]") == IPAddress("::1"))
        #expect(IPAddress("fe80::1%eth0") == IPAddress("fe80::1"))
    }

    @Test func namesAndJunkAreNoAddress() {
        for text in ["", "localhost", "unknown", "_hidden", "10.0.0", "1.2.3.4.5", "::g", "[::1"] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
    }

    @Test(arguments: [
        ("0.0.0.0", IPAddress.Scope.unspecified), ("::", .unspecified),
        ("127.0.0.1", .loopback), ("127.255.0.9", .loopback), ("::1", .loopback), ("::ffff:127.0.0.1", .loopback),
        ("10.0.0.5", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("192.168.1.23", .privateNetwork), ("100.64.0.1", .privateNetwork), ("fd12::1", .privateNetwork),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal),
        ("224.0.0.1", .multicast), ("255.255.255.255", .multicast), ("ff02::1", .multicast),
        ("240.0.0.1", .reserved), ("192.0.2.1", .reserved), ("198.18.0.1", .reserved), ("::10.0.0.1", .reserved),
        ("2001:db8::1", .reserved),
        ("64:ff9b::7f00:1", .loopback), ("2002:a00:1::", .privateNetwork), ("64:ff9b::808:808", .global),
        ("8.8.8.8", .global), ("172.32.0.1", .global), ("100.128.0.1", .global), ("2606:4700::1111", .global),
    ])
    func scopes(text: String, scope: IPAddress.Scope) throws {
        #expect(try #require(IPAddress(text)).scope == scope)
    }

    @Test func networks() throws {
        let network = try #require(IPNetwork("10.0.0.0/8"))
        #expect(network.contains(try #require(IPAddress("10.200.1.1"))))
        #expect(!network.contains(try #require(IPAddress("11.0.0.1"))))
        #expect(!network.contains(try #require(IPAddress("::1"))))
        let mapped = try #require(IPNetwork("::ffff:10.0.0.0/104"))
        #expect(mapped.contains(try #require(IPAddress("10.9.9.9"))))
        #expect(IPNetwork("10.0.0.0/33") == nil)
        #expect(IPNetwork("fd00::/129") == nil)
        #expect(IPNetwork("10.0.0.0/") == nil)
    }
}
