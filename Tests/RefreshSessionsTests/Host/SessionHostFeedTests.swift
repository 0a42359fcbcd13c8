import Foundation
import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// A session over an external feed source (docs/FEEDS.md, "Serving"), event by event: the host hands the model's
/// requests to the transport, applies each answer as member −1's recorded input, and tells the pages what changed
/// (`rows`, `feed_request`, `new_items`). The source is scripted here (the host never calls one).
@Suite struct SessionHostFeedTests {
    /// A feed of `count` items, newest first: ids count down from `count`, a minute apart; a cursor is an id.
    struct ScriptedFeed {
        var items: [FeedItem]

        init(count: Int) {
            items = (1...count).reversed().map { Self.item($0) }
        }

        static func item(_ number: Int) -> FeedItem {
            FeedItem(
                id: String(number), text: "Item \(number)",
                timeMicros: 1_700_000_000_000_000 + Int64(number) * 60_000_000)
        }

        mutating func post(_ number: Int) { items.insert(Self.item(number), at: 0) }

        /// The page `request` asks for.
        func page(_ request: FeedRequest) -> FeedOutcome {
            var slice: ArraySlice<FeedItem>
            switch request.position {
            case .newest, .around: slice = items[...]
            case .olderThan(let cursor):
                let index = items.firstIndex { $0.id == cursor.value }.map { $0 + 1 } ?? items.count
                slice = items[index...]
            case .newerThan(let cursor):
                let index = items.firstIndex { $0.id == cursor.value } ?? 0
                slice = items[..<index].suffix(request.limit)
            }
            let page = Array(slice.prefix(request.limit))
            return .page(
                FeedPage(
                    items: page, olderCursor: page.last.map { FeedCursor($0.id) },
                    newerCursor: page.first.map { FeedCursor($0.id) }, hasMore: slice.count > page.count))
        }
    }

    private func external(_ configure: (inout SessionHost.Configuration) -> Void = { _ in }) -> TestTransport {
        TestTransport {
            $0.feedSource = "sqlite:test.db"
            $0.feedKind = .sqlite
            $0.feedPostable = true
            configure(&$0)
        }
    }

    private func joined(_ transport: TestTransport, _ hello: String = TestTransport.hello()) throws -> Connection {
        let connection = transport.open()
        transport.send(hello, on: connection)
        try #require(transport.welcome(connection) != nil, "welcomed: \(transport.messages(connection))")
        return connection
    }

    private func rows(_ transport: TestTransport, _ page: Connection) -> [[String: Any]] {
        transport.messages(page, type: "rows")
    }

    private func ids(_ message: [String: Any]?) -> [String] {
        (message?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func theFirstPageIsAskedAtOnceAndArrivesAsRowsBeforeTheFrameThatCountsIt() throws {
        let transport = external()
        let feed = ScriptedFeed(count: 100)
        let page = try joined(transport)
        let welcome = try #require(transport.welcome(page))
        let info = try #require(welcome["feed"] as? [String: Any])
        #expect(info["source"] as? String == "sqlite:test.db" && info["kind"] as? String == "sqlite")
        #expect(transport.feedRequests.count == 1)
        #expect(transport.feedRequests.first?.request.position == .newest)
        #expect(ids(rows(transport, page).first).isEmpty, "after the welcome: every loaded item (none yet)")

        let asked = try #require(transport.answerFeed(feed.page))
        let all = transport.messages(page)
        let rowsIndex = try #require(all.lastIndex { $0["type"] as? String == "rows" })
        let replace = all[rowsIndex]
        #expect(replace["op"] as? String == "replace")
        #expect(ids(replace) == feed.items.prefix(asked.limit).map(\.id))
        #expect(replace["count"] as? Int == asked.limit)
        let frameIndex = try #require(
            all.lastIndex { ($0["feed"] as? [String: Any])?["count"] as? Int == asked.limit })
        #expect(rowsIndex < frameIndex, "the rows come before the frame that shows them")
        let request = try #require(transport.messages(page, type: "feed_request").last)
        #expect(request["kind"] as? String == "refresh" && request["error"] is NSNull)
    }

    @Test func theAnswerIsRecordedAsMemberMinusOneAndAskedOnlyOncePerRequest() throws {
        let transport = external()
        let feed = ScriptedFeed(count: 60)
        let page = try joined(transport)
        transport.send(transport.touch("start", dy: 0), on: page)
        transport.send(transport.touch("end", dy: 0), on: page)
        #expect(transport.feedRequests.count == 1, "the same running request is not asked twice")
        transport.answerFeed(feed.page)
        let session = try #require(transport.host.sessions.values.first)
        let trace = String(decoding: session.traced.recorder.json(), as: UTF8.self)
        #expect(trace.contains(#""feedSource":"sqlite:test.db""#))
        #expect(trace.contains(#""member":-1"#) && trace.contains("feed_answer"))
        // the trace replays to the same frames without the source
        let replayed = try TraceReplay(try Trace(json: session.traced.recorder.json())).run()
        #expect(replayed.matches)
    }

    @Test func loadMoreAppendsAndAJoiningPageGetsEveryLoadedItem() throws {
        let transport = external()
        let feed = ScriptedFeed(count: 100)
        let first = try joined(transport)
        let size = try #require(transport.answerFeed(feed.page)).limit
        transport.send(#"{"type":"command","name":"loadMore"}"#, on: first)
        let older = try #require(transport.feedRequests.first?.request)
        #expect(older.position == .olderThan(FeedCursor(feed.items[size - 1].id)))
        transport.answerFeed(feed.page)
        let append = try #require(rows(transport, first).last)
        #expect(append["op"] as? String == "append")
        #expect(ids(append) == feed.items[size..<(2 * size)].map(\.id) && append["count"] as? Int == 2 * size)
        #expect(transport.messages(first, type: "feed_request").last?["kind"] as? String == "older")

        let id = try #require(transport.welcome(first)?["session"] as? String)
        let second = try joined(transport, transport.join(id))
        let replace = try #require(rows(transport, second).first)
        #expect(replace["op"] as? String == "replace" && ids(replace) == feed.items.prefix(2 * size).map(\.id))
    }

    @Test func aFailedAnswerIsAFeedRequestWithItsErrorAndTheSessionGoesOn() throws {
        let transport = external()
        let feed = ScriptedFeed(count: 50)
        let page = try joined(transport)
        transport.answerFeed { _ in .failure(FeedFailure(code: "locked", message: "The feed file is locked.")) }
        let request = try #require(transport.messages(page, type: "feed_request").last)
        let error = try #require(request["error"] as? [String: Any])
        #expect(error["code"] as? String == "locked" && error["message"] as? String == "The feed file is locked.")
        #expect(rows(transport, page).count == 1, "no rows beyond the welcome's")
        transport.send(#"{"type":"command","name":"refresh"}"#, on: page)
        transport.answerFeed(feed.page)
        #expect(rows(transport, page).last?["op"] as? String == "replace")
        #expect(transport.errors(page).isEmpty)
    }

    @Test func aPollCountsTheItemsAboveTheTopAndARefreshClearsIt() throws {
        let transport = external()
        var feed = ScriptedFeed(count: 50)
        let page = try joined(transport)
        transport.answerFeed(feed.page)
        feed.post(51)
        guard case .page(let newest) = feed.page(FeedRequest(.newest, limit: 20)) else { return }
        transport.polled(newest)
        #expect(transport.messages(page, type: "new_items").last?["count"] as? Int == 1)
        transport.polled(newest)
        #expect(transport.messages(page, type: "new_items").count == 1, "sent when it changes only")
        transport.send(#"{"type":"command","name":"refresh"}"#, on: page)
        transport.answerFeed(feed.page)
        #expect(transport.messages(page, type: "new_items").last?["count"] as? Int == 0)
        #expect(ids(rows(transport, page).last).first == "51")
    }

    @Test func aTakeOverKeepsTheRowsAndAsksTheRunningRequestAgain() throws {
        let store = MemoryStore()
        let node = { (name: String) -> TestTransport in
            let transport = self.external {
                $0.node = name
                $0.prefixesIDs = true
            }
            transport.store = store
            transport.host.hasStore = true
            return transport
        }
        let feed = ScriptedFeed(count: 100)
        let a = node("a")
        let page = try joined(a)
        let welcome = try #require(a.welcome(page))
        let (id, token) = (try #require(welcome["session"] as? String), try #require(welcome["token"] as? String))
        let size = try #require(a.answerFeed(feed.page)).limit
        a.send(#"{"type":"command","name":"loadMore"}"#, on: page)
        let running = try #require(a.feedRequests.first)
        a.now += StoreLedger.period
        a.sweep()
        // `a` is gone before the source answered; `b` takes the page's hello
        let b = node("b")
        b.balancerBackend = "a"
        b.now = a.now
        let (again, resumed) = try b.welcomed(TestTransport.hello(session: id, token: token))
        #expect(resumed["session"] as? String == id)
        let replace = try #require(rows(b, again).first)
        #expect(replace["op"] as? String == "replace" && ids(replace) == feed.items.prefix(size).map(\.id))
        let asked = try #require(b.feedRequests.first)
        #expect(asked.id == running.id && asked.request == running.request, "the running request is asked again")
        b.answerFeed(feed.page)
        #expect(rows(b, again).last?["op"] as? String == "append")
    }

    @Test func newItemsCountsWithinThePolledPage() {
        let feed = ScriptedFeed(count: 30)
        let page = FeedPage(items: Array(feed.items.prefix(10)), olderCursor: nil, newerCursor: nil, hasMore: true)
        #expect(NewItems(polled: page, top: nil) == .none)
        #expect(NewItems(polled: page, top: feed.items[3]) == NewItems(count: 3, more: false))
        #expect(NewItems(polled: page, top: feed.items[20]) == NewItems(count: 10, more: true))
        #expect(NewItems(polled: page, top: ScriptedFeed.item(31)) == .none)
    }

    @Test func aSimulatedSessionNeverAsksAndGetsItsRowsAsAnyOther() throws {
        // The engine's own feed answers inside the model: nothing goes to a source; the rows reach the page as
        // `rows` messages, as an external source's do.
        let transport = TestTransport()
        let page = try joined(transport)
        transport.send(#"{"type":"command","name":"refresh"}"#, on: page)
        #expect(transport.feedRequests.isEmpty)
        #expect(!rows(transport, page).isEmpty)
        let feed = try #require(transport.welcome(page)?["feed"] as? [String: Any])
        #expect(feed["kind"] as? String == "simulated" && feed["source"] as? String == "simulated")
    }
}
