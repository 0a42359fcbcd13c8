import Testing

@testable import RefreshAccess

@Suite struct AddressBudgetsTests {
    let neighbour = ClientAddress(peer: "192.168.1.40")
    let other = ClientAddress(peer: "192.168.1.41")
    let rates: [AddressBudgets.Kind: AddressBudgets.Rate] = [.post: .init(perSecond: 1, burst: 3)]

    @Test func aBurstThenTheRate() {
        var budgets = AddressBudgets(rates: rates)
        for _ in 0..<3 { #expect(budgets.spend(.post, by: neighbour, at: 0) == .spend) }
        #expect(budgets.spend(.post, by: neighbour, at: 0) == .refuse(retryAfterSeconds: 1))
        #expect(budgets.spend(.post, by: other, at: 0) == .spend)
        #expect(budgets.spend(.post, by: neighbour, at: 999_999) == .refuse(retryAfterSeconds: 1))
        #expect(budgets.spend(.post, by: neighbour, at: 1_000_000) == .spend)
        #expect(budgets.spend(.qrCode, by: neighbour, at: 1_000_000) == .spend)  // no rate: free
    }

    @Test func loopbackIsExemptUnlessAsked() {
        var open = AddressBudgets(rates: rates)
        var strict = AddressBudgets(rates: rates, limitLoopback: true)
        let local = ClientAddress(peer: "127.0.0.1")
        for _ in 0..<10 { #expect(open.spend(.post, by: local, at: 0) == .spend) }
        for _ in 0..<3 { #expect(strict.spend(.post, by: local, at: 0) == .spend) }
        #expect(strict.spend(.post, by: local, at: 0) != .spend)
    }

    @Test func clientsBehindOneProxyAreBudgetedOneByOne() throws {
        var budgets = AddressBudgets(rates: rates)
        let proxies = try TrustedProxies.parse(["127.0.0.1"]).get()
        for _ in 0..<3 {
            _ = budgets.spend(.post, by: proxies.client(peer: "127.0.0.1", headerValue: "10.0.0.7"), at: 0)
        }
        #expect(budgets.spend(.post, by: proxies.client(peer: "127.0.0.1", headerValue: "10.0.0.7"), at: 0) != .spend)
        #expect(budgets.spend(.post, by: proxies.client(peer: "127.0.0.1", headerValue: "10.0.0.8"), at: 0) == .spend)
    }

    @Test func theTableIsBounded() {
        var budgets = AddressBudgets(rates: rates, maxAddresses: 2)
        #expect(budgets.spend(.post, by: neighbour, at: 0) == .spend)
        #expect(budgets.spend(.post, by: other, at: 0) == .spend)
        #expect(budgets.spend(.post, by: ClientAddress(peer: "10.0.0.1"), at: 0) == .refuse(retryAfterSeconds: 1))
        // once the others' buckets have refilled they are forgotten, and the new address is served
        #expect(budgets.spend(.post, by: ClientAddress(peer: "10.0.0.1"), at: 2_000_000) == .spend)
        #expect(budgets.count == 1)
    }
}
