import Testing

@testable import RefreshSessions

@Suite struct AddressRatesTests {
    @Test func connectionsOfOneAddressShareOneBucket() throws {
        var rates = AddressRates(ratePerSecond: 2, limitLoopback: false)
        let joined = (rates.join("10.0.0.9"), rates.join("10.0.0.9"))
        let first = try #require(joined.0)
        let second = try #require(joined.1)
        #expect(first === second && rates.count == 1)
        let spent = (0..<6).map { _ in first.admit(at: 0) }
        #expect(spent == [true, true, true, true, false, false], "a burst of twice the rate")
        #expect(second.admit(at: 500_000), "one token back after half a second")
        rates.leave("10.0.0.9")
        #expect(rates.count == 1)
        rates.leave("10.0.0.9")
        #expect(rates.count == 0)
    }

    @Test func loopbackAndNoRateMeanNoBucket() {
        var rates = AddressRates(ratePerSecond: 2, limitLoopback: false)
        let local = (rates.join("127.0.0.1"), rates.join("::1"), rates.join("unnamed@127.0.0.1"))
        #expect(local.0 == nil && local.1 == nil)
        #expect(local.2 != nil, "a client a proxy did not name is no loopback")
        var strict = AddressRates(ratePerSecond: 2, limitLoopback: true)
        let strictLocal = strict.join("127.0.0.1")
        #expect(strictLocal != nil)
        var none = AddressRates(ratePerSecond: 0, limitLoopback: true)
        let unlimited = none.join("10.0.0.9")
        #expect(unlimited == nil)
    }
}
