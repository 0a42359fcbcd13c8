import RefreshKit
import RefreshWire
import Testing

/// The feed's messages (docs/PROTOCOL.md, "Feed"): `feed_answer` written and read back, refused from a page;
/// `rows`, `feed_request`, `new_items` and `welcome.feed` byte for byte.
struct FeedWireTests {
    static let items = [
        FeedItem(
            id: "42", text: "Line one\n\"quoted\"", author: "ada", timeMicros: 1_732_480_000_123_500,
            image: FeedImage(url: "https://example.org/a.png", width: 640, height: 480)),
        FeedItem(
            id: "41", text: "plain", timeMicros: 1_732_479_000_000_000, title: "A title",
            url: "https://example.org/41"),
    ]
    static let request = SourceRequest(
        id: 7, kind: .nextPage, edge: .bottom, request: FeedRequest(.olderThan(FeedCursor("c41")), limit: 20),
        issued: Timestamp(microseconds: 1_000_000), deadline: Timestamp(microseconds: 12_000_000))
    static let answered = AnsweredRequest(request: request, outcome: .loaded(items: 2), durationMs: 3.25)
    static let page = FeedPage(items: items, olderCursor: FeedCursor("c41"), newerCursor: nil, hasMore: true)

    @Test func aFeedAnswerIsWrittenAsTheProtocolSays() {
        let text = encoded {
            $0.encodeFeedAnswer(FeedAnswerInput(request: 7, outcome: .page(Self.page), durationMs: 3.2), into: &$1)
        }
        #expect(
            text
                == #"{"type":"feed_answer","request":7,"ms":3.2,"items":[{"id":"42","text":"Line one\n\"quoted\"","#
                + #""author":"ada","time":1732480000123.5,"image":{"url":"https://example.org/a.png","width":640,"#
                + #""height":480}},{"id":"41","text":"plain","title":"A title","url":"https://example.org/41","#
                + #""time":1732479000000}],"older":"c41","newer":null,"#
                + #""hasMore":true}"#)
        let failure = FeedFailure(.timedOut(limitMs: 10_000))
        let failed = encoded {
            $0.encodeFeedAnswer(FeedAnswerInput(request: 8, outcome: .failure(failure), durationMs: 10_000), into: &$1)
        }
        #expect(
            failed
                == #"{"type":"feed_answer","request":8,"ms":10000,"error":{"code":"timed_out","#
                + #""message":"The feed did not answer within 10000 ms."}}"#)
    }

    @Test func aFeedAnswerReadsBackAsWritten() throws {
        let undated = FeedPage(
            items: [FeedItem(id: "u", text: "no date", timeMicros: nil)], olderCursor: nil, newerCursor: nil,
            hasMore: false)
        let sectioned = FeedPage(
            items: [FeedItem(id: "s", text: "in a section", timeMicros: 5, section: "Monday \"28\"")],
            olderCursor: nil, newerCursor: nil, hasMore: false)
        let around = FeedPage(
            items: [FeedItem(id: "a", text: "around", timeMicros: 7)], olderCursor: FeedCursor("o"),
            newerCursor: FeedCursor("n"), hasMore: true, above: 1200)
        for outcome in [
            FeedOutcome.page(Self.page), .page(undated), .page(sectioned), .page(around),
            .failure(FeedFailure(.unavailable("HTTP 503"))),
        ] {
            let answer = FeedAnswerInput(request: 3, outcome: outcome, durationMs: 12.345)
            var text: [UInt8] = []
            MessageEncoder().encodeFeedAnswer(answer, into: &text)
            #expect(try FeedAnswerDecoder().decode(text) == answer)
        }
    }

    @Test func aBadFeedAnswerIsRefusedNamingTheField() {
        let cases: [(String, ErrorCode, String)] = [
            (
                #"{"type":"feed_answer","ms":1,"items":[],"hasMore":false}"#, .missingField,
                "feed_answer.request is missing"
            ),
            (
                #"{"type":"feed_answer","request":1,"hasMore":false}"#, .missingField,
                "feed_answer needs \"items\" (a page) or \"error\""
            ),
            (
                #"{"type":"feed_answer","request":1,"items":[{"id":4,"text":"","time":0}],"hasMore":false}"#, .badField,
                "feed_answer.items[0].id must be a string"
            ),
            (
                #"{"type":"feed_answer","request":1,"items":[{"id":"4","text":"","time":"x"}],"hasMore":false}"#,
                .badField,
                "feed_answer.items[0].time must be a finite number (ms since 1970)"
            ),
            (
                #"{"type":"feed_answer","request":1,"items":[],"hasMore":1}"#, .badField,
                "feed_answer.hasMore must be a boolean"
            ),
            (
                #"{"type":"feed_answer","request":1,"items":[{"id":"4","text":"","section":7}],"hasMore":false}"#,
                .badField, "feed_answer.items[0].section must be a string"
            ),
            (
                #"{"type":"feed_answer","request":1,"items":[],"hasMore":false,"above":-1}"#, .outOfRange,
                "feed_answer.above must be 0 or more"
            ),
            (
                #"{"type":"feed_answer","request":1,"items":[],"hasMore":false,"above":1.5}"#, .badField,
                "feed_answer.above must be an integer"
            ),
            (
                #"{"type":"feed_answer","request":1,"error":{"code":"busy"}}"#, .missingField,
                "feed_answer.error.message is missing"
            ),
            (
                #"{"type":"touch","request":1}"#, .badMessage,
                "the feed source's message must have \"type\":\"feed_answer\""
            ),
        ]
        for (text, code, message) in cases {
            do {
                _ = try FeedAnswerDecoder().decode(Array(text.utf8))
                Issue.record("\(text) decoded")
            } catch {
                #expect(error.code == code && error.message == message, "\(text) → \(error)")
                #expect(error.ref == "feed_answer")
            }
        }
    }

    @Test func aPageMaySendNoFeedAnswer() {
        expectError(
            #"{"type":"feed_answer","request":1,"items":[],"hasMore":false}"#, .badMessage,
            message: "feed_answer comes from the server's feed source, not from a page", ref: "feed_answer")
        expectError(#"{"type":"feed\u005fanswer","request":1}"#, .badMessage, ref: "feed_answer")
    }

    @Test func rowsCarryOnlyTheChange() {
        let all = Self.items
        #expect(
            encoded { $0.encodeRows(.appended(1), of: all, into: &$1) }
                == #"{"type":"rows","op":"append","items":[{"id":"41","text":"plain","title":"A title","#
                + #""url":"https://example.org/41","time":1732479000000}],"count":2}"#
        )
        #expect(
            encoded { $0.encodeRows(.prepended(1), of: all, into: &$1) }.hasPrefix(
                #"{"type":"rows","op":"prepend","items":[{"id":"42","#))
        #expect(
            encoded { $0.encodeRows(.replaced, of: [], into: &$1) }
                == #"{"type":"rows","op":"replace","items":[],"count":0}"#)
    }

    @Test func aFeedRequestSaysHowTheRequestEnded() {
        #expect(
            encoded { $0.encodeFeedRequest(Self.answered, into: &$1) }
                == #"{"type":"feed_request","id":7,"kind":"older","cursor":"c41","items":2,"ms":3.25,"error":null}"#)
        var refresh = Self.request
        refresh.request = FeedRequest(.newest, limit: 20)
        let failed = AnsweredRequest(
            request: refresh, outcome: .failed(FeedFailure(code: "busy", message: "Locked.")), durationMs: 0.5)
        #expect(
            encoded { $0.encodeFeedRequest(failed, into: &$1) }
                == #"{"type":"feed_request","id":7,"kind":"refresh","cursor":null,"items":null,"ms":0.5,"#
                + #""error":{"code":"busy","message":"Locked."}}"#)
        // A jump: its kind, and the item's id where a cursor goes; the source's word when it has no such item.
        var jump = Self.request
        jump.kind = .jump
        jump.request = FeedRequest(.around("1234"), limit: 20)
        let unknown = AnsweredRequest(
            request: jump, outcome: .failed(FeedFailure(.unknownItem("1234"))), durationMs: 1.5)
        #expect(
            encoded { $0.encodeFeedRequest(unknown, into: &$1) }
                == #"{"type":"feed_request","id":7,"kind":"around","cursor":"1234","items":null,"ms":1.5,"#
                + #""error":{"code":"unknown_item","message":"The feed has no item \"1234\"."}}"#)
        #expect(
            encoded { $0.encodeNewItems(count: 20, more: true, into: &$1) }
                == #"{"type":"new_items","count":20,"more":true}"#)
    }

    @Test func theWelcomeNamesTheFeedAndItsLastRequests() {
        let welcome = Welcome(
            session: "s", token: "t", preset: "ios", presets: ["ios"], configuration: Preset.ios.configuration,
            serverTime: .zero,
            feed: WelcomeFeed(source: "sqlite:demo.sqlite", kind: .sqlite, postable: true, requests: [Self.answered]))
        let text = encoded { $0.encode(welcome, into: &$1) }
        #expect(
            text.hasSuffix(
                #""feed":{"source":"sqlite:demo.sqlite","kind":"sqlite","postable":true,"requests":[{"id":7,"#
                    + #""kind":"older","cursor":"c41","items":2,"ms":3.25,"error":null}]},"role":"owner"}"#))
    }
}

/// The feed-answer decoder on mutated answers: it reads or refuses each one, with a named error, and never
/// traps; what it reads, it writes back to text that reads the same.
struct FeedAnswerFuzzTests {
    @Test func mutatedAnswersAreReadOrRefused() throws {
        var seeds: [[UInt8]] = []
        for outcome in [
            FeedOutcome.page(FeedWireTests.page), .failure(FeedFailure(.locked(path: "/tmp/f.db"))),
            .page(FeedPage(items: [], olderCursor: nil, newerCursor: FeedCursor("n"), hasMore: false)),
        ] {
            var text: [UInt8] = []
            MessageEncoder().encodeFeedAnswer(
                FeedAnswerInput(request: 9, outcome: outcome, durationMs: 1.5), into: &text)
            seeds.append(text)
        }
        var g = SeededGenerator(seed: 0xFEED)
        var read = 0
        for i in 0..<6_000 {
            let seed = seeds[i % seeds.count]
            let bytes = i % 2 == 0 ? FuzzTests.mutate(seed, &g) : FuzzTests.mutateStructure(seed, &g)
            do {
                let answer = try FeedAnswerDecoder().decode(bytes)
                read += 1
                var again: [UInt8] = []
                MessageEncoder().encodeFeedAnswer(answer, into: &again)
                let reread = try FeedAnswerDecoder().decode(again)
                #expect(reread.request == answer.request && reread.outcome == answer.outcome)
            } catch {
                #expect(!error.message.isEmpty && error.ref == "feed_answer")
            }
        }
        #expect(read > 100)
    }
}
