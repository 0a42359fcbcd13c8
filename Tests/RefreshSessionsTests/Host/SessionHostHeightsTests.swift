import Foundation
import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// `measure` through the host (docs/PROTOCOL.md, "measure, heights"): the accepted heights go to every member,
/// a stale batch changes nothing and is not an error (one that crossed a drop of the window has its other rows
/// applied and announced), a bad one is an `error` naming the row, a joining page
/// gets every height measured so far after its `rows` `replace`, and the measurements replay from the trace.
@Suite struct SessionHostHeightsTests {
    private func external() -> TestTransport {
        TestTransport {
            $0.feedSource = "sqlite:test.db"
            $0.feedKind = .sqlite
        }
    }

    private func joined(_ transport: TestTransport, _ hello: String = TestTransport.hello()) throws -> Connection {
        let connection = transport.open()
        transport.send(hello, on: connection)
        try #require(transport.welcome(connection) != nil, "welcomed: \(transport.messages(connection))")
        return connection
    }

    /// The `rows` of a `heights` message as (id, height) pairs.
    private func heights(_ message: [String: Any]?) -> [String] {
        (message?["rows"] as? [[Any]] ?? []).map { "\($0[0]):\($0[1])" }
    }

    private func measure(_ rows: String, width: Int = 390, seq: Int) -> String {
        #"{"type":"measure","seq":\#(seq),"width":\#(width),"rows":[\#(rows)]}"#
    }

    @Test func acceptedHeightsGoToEveryMemberAndAJoiningPageGetsThemAll() throws {
        let transport = external()
        let feed = SessionHostFeedTests.ScriptedFeed(count: 100)
        let first = try joined(transport)
        transport.answerFeed(feed.page)
        let id = try #require(transport.welcome(first)?["session"] as? String)
        let second = try joined(transport, transport.join(id))
        #expect(transport.messages(second, type: "heights").isEmpty, "nothing measured yet")

        transport.send(measure(#"["100",88.5],["99",40],["100",90]"#, seq: 1), on: first)
        for page in [first, second] {
            #expect(heights(transport.messages(page, type: "heights").last) == ["99:40", "100:90"])
        }
        #expect(transport.errors(first).isEmpty)
        // Stale (another width): nothing sent, no error.
        transport.send(measure(#"["98",10]"#, width: 400, seq: 2), on: first)
        #expect(transport.messages(first, type: "heights").count == 1 && transport.errors(first).isEmpty)
        // Bad: an error naming the row, with the seq; nothing sent.
        transport.send(measure(#"["98",10],["97",0]"#, seq: 3), on: second)
        let error = try #require(transport.messages(second, type: "error").last)
        #expect(error["code"] as? String == "bad_message" && error["ref"] as? String == "measure")
        #expect(error["seq"] as? Int == 3)
        #expect((error["message"] as? String ?? "").contains("row 97"))
        #expect(transport.messages(second, type: "heights").count == 1)

        // A third page: rows replace, then every measured height, top to bottom.
        let third = try joined(transport, transport.join(id))
        let all = transport.messages(third)
        let rowsIndex = try #require(all.firstIndex { $0["type"] as? String == "rows" })
        let heightsIndex = try #require(all.firstIndex { $0["type"] as? String == "heights" })
        #expect(rowsIndex < heightsIndex)
        #expect(heights(all[heightsIndex]) == ["100:90", "99:40"])

        // The measurements are timed inputs in the trace: the session replays to the same frames.
        let session = try #require(transport.host.sessions.values.first)
        let trace = String(decoding: session.traced.recorder.json(), as: UTF8.self)
        #expect(trace.contains("measure"))
        #expect(try TraceReplay(try Trace(json: session.traced.recorder.json())).run().matches)
        // An engine snapshot (a take-over's start) keeps the layout, measurements included.
        let restored = try SessionSnapshot(encoded: session.traced.snapshot().encoded())
        #expect(restored.model == session.model)
        #expect(restored.model.pager.measuredHeights.count == 2)
    }

    /// A batch that names rows of a page the window dropped while it was on its way: those rows are ignored, the
    /// others applied, and announced (the page waits for a `heights` naming each row it sent).
    @Test func aBatchThatCrossedADropOfTheWindowHasItsOtherRowsAnnounced() throws {
        let transport = external()
        let feed = SessionHostFeedTests.ScriptedFeed(count: 400)
        let page = try joined(transport)
        transport.answerFeed(feed.page)
        let session = try #require(transport.host.sessions.values.first)
        var seq = 0
        func send(_ command: String) {
            seq += 1
            transport.now += 20_000
            transport.send(#"{"type":"command",\#(command),"seq":\#(seq)}"#, on: page)
            while transport.answerFeed(feed.page) != nil {}
        }
        // Down the list, a page at a time, until the window drops its top page (row 0 is item 400).
        for _ in 0..<20 where session.model.rowLayout.placeholdersAbove == 0 {
            send(#""name":"loadMore","edge":"bottom""#)
            send(#""name":"scrollBy","amount":1500,"animated":false"#)
        }
        let layout = session.model.rowLayout
        try #require(layout.placeholdersAbove > 0, "the window dropped its top page")
        let held = try #require(layout.id(ofRow: layout.placeholdersAbove))
        let announced = transport.messages(page, type: "heights").count
        let stale = session.model.pager.staleMeasurements

        transport.send(measure(#"["400",120],["\#(held)",130]"#, seq: seq + 1), on: page)
        #expect(transport.errors(page).isEmpty)
        #expect(session.model.pager.staleMeasurements == stale + 1, "counted stale")
        #expect(heights(transport.messages(page, type: "heights").last) == ["\(held):130"])
        #expect(transport.messages(page, type: "heights").count == announced + 1)
        #expect(session.model.pager.measuredHeights.contains { $0.id == held && $0.height == 130 })
        // Only dropped rows: nothing applied, nothing announced.
        transport.send(measure(#"["400",120]"#, seq: seq + 2), on: page)
        #expect(transport.errors(page).isEmpty)
        #expect(transport.messages(page, type: "heights").count == announced + 1)
    }
}
