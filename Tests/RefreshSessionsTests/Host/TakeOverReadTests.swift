import Foundation
import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// A take-over's read is an action out and an event back (SessionHost+TakeOver.swift): the host asks the store
/// (`readStore`) and goes on; the `hello` waits for the answer (`storeRead`), and what its connection sends
/// meanwhile is handled after it, in order.
@Suite struct TakeOverReadTests {
    /// Node `a` makes a session and writes it to `store`; node `b`, whose reads wait for the test, is asked
    /// for it. - Returns: `b`, the session's id and its member's token.
    private func sessionOnA(
        _ store: MemoryStore
    ) throws -> (b: TestTransport, id: String, token: String, key: String) {
        let a = TestTransport.node("a", store)
        let (page, welcome) = try a.welcomed(TestTransport.hello())
        a.send(#"{"type":"command","name":"scrollBy","amount":300}"#, on: page)
        a.sweep()
        let b = TestTransport.node("b", store)
        b.balancerBackend = "a"  // `a` is gone: the balancer sends its pages to `b`, its backup
        b.holdsStoreReads = true
        b.now = a.now + 50_000
        return (
            b, try #require(welcome["session"] as? String), try #require(welcome["token"] as? String),
            try #require(TestTransport.key(in: welcome))
        )
    }

    @Test func theHelloWaitsForTheStoreAndWhatCameMeanwhileFollowsIt() throws {
        let store = MemoryStore()
        let (b, id, token, _) = try sessionOnA(store)
        let page = b.open()
        b.send(TestTransport.hello(session: id, token: token), on: page)
        b.send(#"{"type":"ping","t":5}"#, on: page)
        #expect(b.storeReads.map(\.session) == [id], "one read asked")
        #expect(b.messages(page).isEmpty, "nothing answered before the store: \(b.messages(page))")
        #expect(b.host.sessions[id] == nil)
        b.now += 3_000
        let read = try #require(b.answerStoreRead())
        #expect(read.session == id)
        let types = b.messages(page).compactMap { $0["type"] as? String }
        #expect(types.first == "welcome" && types.contains("pong"), "\(types)")
        #expect(types.firstIndex(of: "pong")! > types.firstIndex(of: "welcome")!)
        let welcome = try #require(b.welcome(page))
        #expect(welcome["session"] as? String == id && welcome["resumed"] as? Bool == true)
        let takeOver = try #require(welcome["takeover"] as? [String: Any])
        #expect(takeOver["from"] as? String == "a")
        #expect(takeOver["catchUpMs"] as? Double == 3, "from the hello to the store's answer")
    }

    @Test func twoPagesAskingForTheSameSessionMakeOneRead() throws {
        let store = MemoryStore()
        let (b, id, token, key) = try sessionOnA(store)
        let first = b.open()
        let second = b.open()
        b.send(TestTransport.hello(session: id, token: token), on: first)
        b.send(TestTransport.hello(session: id, key: key), on: second)
        #expect(b.storeReads.count == 1)
        b.answerStoreRead()
        #expect(b.welcome(first)?["session"] as? String == id)
        #expect(b.welcome(second)?["session"] as? String == id, "the second page joins the session taken over")
        #expect(b.host.sessions[id]?.connectedCount == 2)
    }

    @Test func aPageThatLeftBeforeTheAnswerTakesNothingOver() throws {
        let store = MemoryStore()
        let (b, id, token, _) = try sessionOnA(store)
        let page = b.open()
        b.send(TestTransport.hello(session: id, token: token), on: page)
        b.close(page)
        b.answerStoreRead()
        #expect(b.host.sessions[id] == nil)
        #expect(store.sessions[id]?.node == "a", "the store still names the holder")
    }

    @Test func tooManyMessagesWhileWaitingAreRefusedClearly() throws {
        let store = MemoryStore()
        let (b, id, token, _) = try sessionOnA(store)
        let page = b.open()
        b.send(TestTransport.hello(session: id, token: token), on: page)
        for t in 0...SessionHost.maxHeldMessages { b.send(#"{"type":"ping","t":\#(t)}"#, on: page) }
        #expect(b.errors(page) == ["not_ready"], "the one beyond the limit is refused")
        b.answerStoreRead()
        #expect(b.messages(page, type: "pong").count == SessionHost.maxHeldMessages)
    }

    @Test func anUnreachableStoreGivesANewSessionAndAnAnswerNotWaitedForIsIgnored() throws {
        let store = MemoryStore()
        let (b, id, token, _) = try sessionOnA(store)
        let page = b.open()
        b.send(TestTransport.hello(session: id, token: token), on: page)
        let read = try #require(b.storeReads.first)
        b.answerStoreRead(.unavailable)
        let welcome = try #require(b.welcome(page))
        #expect(welcome["session"] as? String != id && welcome["notice"] as? String == "session_expired")
        // The same answer again (late): nothing happens.
        let before = b.messages(page).count
        b.host.storeRead(StoreReadAnswer(read: read, load: store.load(id)), at: b.now)
        #expect(b.messages(page).count == before && b.host.sessions[id] == nil)
    }
}
