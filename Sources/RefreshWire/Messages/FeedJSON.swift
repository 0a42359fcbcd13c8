import RefreshKit

/// How the wire spells a feed's parts (PROTOCOL.md, "rows", "feed_request", "welcome"): an item, a page of items, a
/// request and how it ended, a failure, and each one's bound (the most bytes it takes, so a message is written in
/// one pass). The feed messages of ``MessageEncoder`` (MessageEncoder+Feed.swift, MessageEncoder+Rows.swift) and
/// the `welcome` write their feed parts with it, and `POST /feed/items` answers with an item as the rows carry it.
package enum FeedJSON {
    /// Writes `welcome.feed`'s object.
    static func writeWelcomeFeed(_ feed: WelcomeFeed, to w: inout JSONWriter) {
        w.literal(#"{"source":"#)
        w.string(feed.source)
        w.literal(#","kind":"#)
        w.plainString(feed.kind.rawValue)
        w.literal(#","postable":"#)
        w.bool(feed.postable)
        w.literal(#","requests":["#)
        for (index, answered) in feed.requests.enumerated() {
            if index > 0 { w.byte(.comma) }
            w.byte(.openBrace)
            writeRequestFields(answered, to: &w)
            w.byte(.closeBrace)
        }
        w.literal("]}")
    }

    /// The most bytes `welcome.feed` takes.
    static func bound(of feed: WelcomeFeed) -> Int {
        96 + 6 * feed.source.utf8.count + feed.requests.reduce(0) { $0 + bound(of: $1) }
    }

    // MARK: Parts

    /// `"id":7,"kind":…,"cursor":…,"items":…,"ms":…,"error":…` (the `feed_request` message's fields; a jump's
    /// `cursor` is the item's id).
    static func writeRequestFields(_ answered: AnsweredRequest, to w: inout JSONWriter) {
        let (kind, cursor): (StaticString, FeedCursor?) =
            switch answered.request.request.position {
            case .newest: ("refresh", nil)
            case .olderThan(let cursor): ("older", cursor)
            case .newerThan(let cursor): ("newer", cursor)
            case .around(let id): ("around", FeedCursor(id))
            }
        w.literal(#""id":"#)
        w.integer(Int64(answered.request.id))
        w.literal(#","kind":""#)
        w.literal(kind)
        w.literal(#"","cursor":"#)
        writeOptional(cursor?.value, to: &w)
        w.literal(#","items":"#)
        switch answered.outcome {
        case .loaded(let items):
            w.integer(Int64(items))
            w.literal(#","ms":"#)
            w.fixed(answered.durationMs, decimals: 3)
            w.literal(#","error":null"#)
        case .failed(let failure):
            w.literal("null")
            w.literal(#","ms":"#)
            w.fixed(answered.durationMs, decimals: 3)
            w.literal(#","error":"#)
            writeFailure(failure, to: &w)
        }
    }

    static func writeItems(_ items: ArraySlice<FeedItem>, to w: inout JSONWriter) {
        w.byte(.openBracket)
        for (index, item) in items.enumerated() {
            if index > 0 { w.byte(.comma) }
            writeItem(item, to: &w)
        }
        w.byte(.closeBracket)
    }

    /// One item, as the pages and the feed source's answers have it (the shape in the type's comment); also the
    /// answer to `POST /feed/items` (docs/FEEDS.md, "Posting over HTTP"), so an item has one JSON form.
    package static func itemJSON(_ item: FeedItem) -> [UInt8] {
        var buffer: [UInt8] = []
        appendJSON(to: &buffer, bound: bound(of: [item][...])) { writeItem(item, to: &$0) }
        return buffer
    }

    static func writeItem(_ item: FeedItem, to w: inout JSONWriter) {
        w.literal(#"{"id":"#)
        w.string(item.id)
        w.literal(#","text":"#)
        w.string(item.text)
        w.member(#","author":"#, string: item.author)
        w.member(#","title":"#, string: item.title)
        w.member(#","url":"#, string: item.url)
        w.member(#","section":"#, string: item.section)
        w.member(#","time":"#, milliseconds: item.timeMicros.map(Timestamp.init(microseconds:)))
        if let image = item.image {
            w.literal(#","image":{"url":"#)
            w.string(image.url)
            w.member(#","width":"#, integer: image.width)
            w.member(#","height":"#, integer: image.height)
            w.byte(.closeBrace)
        }
        w.byte(.closeBrace)
    }

    static func writeFailure(_ failure: FeedFailure, to w: inout JSONWriter) {
        w.literal(#"{"code":"#)
        w.string(failure.code)
        w.literal(#","message":"#)
        w.string(failure.message)
        w.byte(.closeBrace)
    }

    static func writeOptional(_ text: String?, to w: inout JSONWriter) {
        if let text { w.string(text) } else { w.literal("null") }
    }

    // Bounds: a string takes at most 6 bytes per byte of UTF-8 (`\u00XX`), a number at most 24.

    static func bound(of items: ArraySlice<FeedItem>) -> Int {
        items.reduce(2) { sum, item in
            let strings =
                item.id.utf8.count + item.text.utf8.count + (item.author?.utf8.count ?? 0)
                + (item.title?.utf8.count ?? 0) + (item.url?.utf8.count ?? 0) + (item.section?.utf8.count ?? 0)
                + (item.image?.url.utf8.count ?? 0)
            return sum + 128 + 6 * strings
        }
    }

    static func bound(of outcome: FeedOutcome) -> Int {
        switch outcome {
        case .page(let page):
            bound(of: page.items[...]) + 6
                * ((page.olderCursor?.value.utf8.count ?? 0) + (page.newerCursor?.value.utf8.count ?? 0))
        case .failure(let failure): 6 * (failure.code.utf8.count + failure.message.utf8.count)
        }
    }

    static func bound(of answered: AnsweredRequest) -> Int {
        var bound = 160
        switch answered.request.request.position {
        case .newest: break
        case .olderThan(let cursor), .newerThan(let cursor): bound += 6 * cursor.value.utf8.count
        case .around(let id): bound += 6 * id.utf8.count
        }
        if case .failed(let failure) = answered.outcome {
            bound += 6 * (failure.code.utf8.count + failure.message.utf8.count)
        }
        return bound
    }
}
