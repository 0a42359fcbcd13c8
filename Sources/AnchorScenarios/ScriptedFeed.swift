import RefreshKit

/// The feed source of the anchoring scenarios: items numbered 1 (the oldest) to ``newest``, answered at once
/// and the same way every time, so a scenario is deterministic and its model and its twin get the same pages.
///
/// It answers a ``FeedRequest`` as a source behind `serve --feed` would (docs/FEEDS.md): the newest page, or
/// the page older than a cursor (the cursor is the item's number). Item `n`'s text is between one and six
/// lines long at a phone's width, and every third item has a picture whose size the feed does not say (as a
/// JSON Feed's), so the page knows its box only once it has loaded it (``imageSize(of:)``).
public struct ScriptedFeed: Hashable, Sendable {
    /// The number of the newest item published.
    public private(set) var newest: Int

    /// A feed of the items 1 … `items`.
    public init(items: Int) {
        newest = max(1, items)
    }

    /// Publishes `count` new items on top (what a refresh then finds).
    public mutating func publish(_ count: Int) {
        newest += max(0, count)
    }

    /// The source's answer to `request`: at most `request.limit` items, newest first.
    public func page(for request: FeedRequest) -> FeedPage {
        let top: Int
        switch request.position {
        case .newest: top = newest
        case .olderThan(let cursor): top = (Int(cursor.value) ?? 1) - 1
        case .newerThan(let cursor): top = min(newest, (Int(cursor.value) ?? newest) + request.limit)
        case .around(let id): top = min(newest, (Int(id) ?? newest) + (request.limit - 1) / 2)
        }
        let bottom = max(1, top - request.limit + 1)
        let numbers = top >= 1 ? Array((bottom...top).reversed()) : []
        let above: Int? = if case .around = request.position { newest - top } else { nil }
        return FeedPage(
            items: numbers.map(Self.item), olderCursor: numbers.last.map { FeedCursor("\($0)") },
            newerCursor: numbers.first.map { FeedCursor("\($0)") }, hasMore: bottom > 1, above: above)
    }

    /// Item `number`: words enough for 1 to 6 lines, one second newer than the item before it, and a picture
    /// on every third.
    public static func item(_ number: Int) -> FeedItem {
        let words = 4 + (number * 37) % 41
        let text = (0..<words).map { "word\(($0 * 7 + number) % 97)" }.joined(separator: " ")
        let image = number.isMultiple(of: 3) ? FeedImage(url: "/images/\(number).jpg") : nil
        return FeedItem(
            id: "\(number)", text: text, author: "author \(number % 13)", timeMicros: Int64(number) * 1_000_000,
            image: image)
    }

    /// The natural size of item `number`'s picture, px, as the page learns it when the picture has loaded:
    /// landscape to square, never the same twice in a row.
    public static func imageSize(of number: Int) -> (width: Double, height: Double) {
        (1_200, 600 + Double((number * 53) % 9) * 75)
    }
}
