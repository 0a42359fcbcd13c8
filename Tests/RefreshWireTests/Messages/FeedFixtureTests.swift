import Foundation
import PageFixtures
import RefreshKit
import RefreshWire
import Testing

/// The page's feed fixtures (web/test/fixtures/feed/, read by the page's node tests) are what the server's encoder
/// writes for these values, not hand-written copies of the protocol: a golden test that fails when the encoder's
/// output moved away from what the page is tested against. `REFRESHKIT_WRITE_FIXTURES=1 swift test --filter
/// FeedFixtureTests` writes them anew.
@Suite struct FeedFixtureTests {
    /// An item at `ms` milliseconds since 1970.
    static func item(_ id: Int, _ text: String, _ author: String?, ms: Double, image: FeedImage? = nil) -> FeedItem {
        FeedItem(id: String(id), text: text, author: author, timeMicros: Int64(ms * 1000), image: image)
    }

    static let replaced = [
        item(42, "A journey of a thousand miles begins with a single step.", "Lao Tzu", ms: 1_732_480_000_123.5),
        item(
            41, "Whenever you find yourself on the side of the majority, it is time to pause and reflect.",
            "Mark Twain", ms: 1_732_479_880_000),
        item(
            40, "Never put off till tomorrow what you can do the day after tomorrow just as well.", nil,
            ms: 1_732_476_400_000, image: FeedImage(url: "https://example.org/40.jpg", width: 640, height: 480)),
    ]

    /// A request the log shows, ended as `outcome` after `ms`.
    static func answered(
        _ id: Int, _ kind: SourceRequest.Kind, _ position: FeedPosition, _ outcome: AnsweredRequest.Outcome,
        ms: Double
    ) -> AnsweredRequest {
        let edge: Edge = kind == .nextPage ? .bottom : .top
        let request = SourceRequest(
            id: id, kind: kind, edge: edge, request: FeedRequest(position, limit: 20), issued: .zero, deadline: .zero)
        return AnsweredRequest(request: request, outcome: outcome, durationMs: ms)
    }

    static let welcome = Welcome(
        session: "s-fixture", token: "t-fixture", preset: "ios", presets: ["ios"],
        configuration: Preset.ios.configuration, serverTime: Timestamp(microseconds: 1_732_480_100_000_000),
        member: 0,
        feed: WelcomeFeed(
            source: "sqlite:demo.sqlite", kind: .sqlite, postable: true,
            requests: [
                answered(
                    2, .nextPage, .olderThan(FeedCursor("1732479400000.0:3")), .loaded(items: 2), ms: 1.4),
                answered(1, .refresh, .newest, .loaded(items: 3), ms: 2.8),
            ]))

    /// Each fixture's name and the message it holds.
    static let messages: [(String, ServerMessage)] = [
        ("welcome", .welcome(welcome)),
        ("rows-replace", .rowsUpdate(RowsUpdate(.replaced(items: replaced, above: 0, below: 0), rowCount: 3))),
        (
            "rows-prepend",
            .rowsUpdate(
                RowsUpdate(
                    .prepended([
                        item(44, "posted from device A", "device A", ms: 1_732_480_090_000),
                        item(
                            43, "The best way to predict the future is to invent it.", "Alan Kay",
                            ms: 1_732_480_060_000),
                    ]), rowCount: 5))
        ),
        (
            "rows-append",
            .rowsUpdate(
                RowsUpdate(
                    .appended([
                        item(
                            39, "Simplicity is prerequisite for reliability.", "Edsger W. Dijkstra",
                            ms: 1_732_393_600_000),
                        item(
                            38, "Premature optimization is the root of all evil.", "Donald Knuth",
                            ms: 1_700_000_000_000),
                    ]), rowCount: 7))
        ),
        (
            "feed-request-ok",
            .feedRequest(
                answered(7, .refresh, .newest, .loaded(items: 20), ms: 3.2))
        ),
        (
            "feed-request-failed",
            .feedRequest(
                answered(
                    8, .nextPage, .olderThan(FeedCursor("1732476400000.0:40")),
                    .failed(FeedFailure(code: "timed_out", message: "the source did not answer within 10000 ms")),
                    ms: 10_000))
        ),
        ("new-items", .newItems(count: 1, more: false)),
        ("new-items-none", .newItems(count: 0, more: false)),
        ("new-items-more", .newItems(count: 20, more: true)),
        ("heights", .heights([RowMeasurement(id: "41", height: 100), RowMeasurement(id: "40", height: 330)])),
    ]

    @Test(arguments: messages.map(\.0))
    func theFixtureIsWhatTheEncoderWrites(name: String) throws {
        let message = try #require(Self.messages.first { $0.0 == name }?.1)
        var bytes: [UInt8] = []
        MessageEncoder().encode(message, into: &bytes)
        let text = String(decoding: bytes, as: UTF8.self) + "\n"
        let file = "feed/\(name).json"
        #expect(
            try PageFixtures.committed(text, named: file) == text,
            "\(PageFixtures.differs(file, filter: "FeedFixtureTests"))")
    }
}
