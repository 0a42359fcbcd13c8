import RefreshKit

/// The messages of an external feed (docs/PROTOCOL.md, "Feed"): the source's answer as the trace records it
/// (`feed_answer`), and what the pages get: the loaded items (`rows`), the request log (`feed_request`) and
/// the count of items newer than the top one (`new_items`). An item is written as
/// `{"id","text","author"?,"title"?,"url"?,"time","image"?:{"url","width"?,"height"?}}`, its `time` in
/// milliseconds since 1970.
extension MessageEncoder {
    /// Appends the `feed_answer` of `answer` to `buffer`: the text the host records and applies as member -1
    /// (``FeedAnswerDecoder`` reads it back). `ms` is written to the microsecond.
    public func encodeFeedAnswer(_ answer: FeedAnswerInput, into buffer: inout [UInt8]) {
        appendJSON(to: &buffer, bound: 160 + Self.bound(of: answer.outcome)) { w in
            w.literal(#"{"type":"feed_answer","request":"#)
            w.integer(Int64(answer.request))
            w.literal(#","ms":"#)
            w.fixed(answer.durationMs, decimals: 3)
            switch answer.outcome {
            case .page(let page):
                w.literal(#","items":"#)
                Self.writeItems(page.items[...], to: &w)
                w.literal(#","older":"#)
                Self.writeOptional(page.olderCursor?.value, to: &w)
                w.literal(#","newer":"#)
                Self.writeOptional(page.newerCursor?.value, to: &w)
                w.literal(#","hasMore":"#)
                w.bool(page.hasMore)
            case .failure(let failure):
                w.literal(#","error":"#)
                Self.writeFailure(failure, to: &w)
            }
            w.byte(.closeBrace)
        }
    }

    /// Appends a `rows` message to `buffer`: the items `change` touched in `items` (every item for
    /// `RowsChange.replaced`, the first or last `n` for a prepend or an append), and `count`, the number
    /// of items loaded (the next frames' `feed.count`).
    public func encodeRows(_ change: RowsChange, of items: [FeedItem], into buffer: inout [UInt8]) {
        let (op, part): (StaticString, ArraySlice<FeedItem>) =
            switch change {
            case .replaced: ("replace", items[...])
            case .prepended(let n): ("prepend", items.prefix(n))
            case .appended(let n): ("append", items.suffix(n))
            // placeholders have no items: the held ones, anew (the rows updates say where: RowsUpdate)
            case .placeholdersOnTop: ("replace", items[...])
            }
        appendJSON(to: &buffer, bound: 96 + Self.bound(of: part)) { w in
            w.literal(#"{"type":"rows","op":""#)
            w.literal(op)
            w.literal(#"","items":"#)
            Self.writeItems(part, to: &w)
            w.literal(#","count":"#)
            w.integer(Int64(items.count))
            w.byte(.closeBrace)
        }
    }

    /// Appends a `feed_request` message to `buffer`: one request to the source and how it ended (the debug
    /// panel's log; the failed state's message).
    public func encodeFeedRequest(_ answered: AnsweredRequest, into buffer: inout [UInt8]) {
        appendJSON(to: &buffer, bound: 64 + Self.bound(of: answered)) { w in
            w.literal(#"{"type":"feed_request","#)
            Self.writeRequestFields(answered, to: &w)
            w.byte(.closeBrace)
        }
    }

    /// Appends a `new_items` message to `buffer`: `count` items newer than the session's top item exist at the
    /// source (at most a page; `more` when there are more than that). A `count` of 0 clears it.
    public func encodeNewItems(count: Int, more: Bool, into buffer: inout [UInt8]) {
        appendJSON(to: &buffer, bound: 64) { w in
            w.literal(#"{"type":"new_items","count":"#)
            w.integer(Int64(count))
            w.literal(#","more":"#)
            w.bool(more)
            w.byte(.closeBrace)
        }
    }

    /// Writes `welcome.feed`'s object.
    func writeWelcomeFeed(_ feed: WelcomeFeed, to w: inout JSONWriter) {
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
            Self.writeRequestFields(answered, to: &w)
            w.byte(.closeBrace)
        }
        w.literal("]}")
    }

    /// The most bytes `welcome.feed` takes.
    static func bound(of feed: WelcomeFeed) -> Int {
        96 + 6 * feed.source.utf8.count + feed.requests.reduce(0) { $0 + bound(of: $1) }
    }

    // MARK: Parts

    /// `"id":7,"kind":…,"cursor":…,"items":…,"ms":…,"error":…` (the `feed_request` message's fields).
    private static func writeRequestFields(_ answered: AnsweredRequest, to w: inout JSONWriter) {
        let (kind, cursor): (StaticString, FeedCursor?) =
            switch answered.request.request.position {
            case .newest: ("refresh", nil)
            case .olderThan(let cursor): ("older", cursor)
            case .newerThan(let cursor): ("newer", cursor)
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

    private static func writeItem(_ item: FeedItem, to w: inout JSONWriter) {
        w.literal(#"{"id":"#)
        w.string(item.id)
        w.literal(#","text":"#)
        w.string(item.text)
        w.member(#","author":"#, string: item.author)
        w.member(#","title":"#, string: item.title)
        w.member(#","url":"#, string: item.url)
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

    private static func writeFailure(_ failure: FeedFailure, to w: inout JSONWriter) {
        w.literal(#"{"code":"#)
        w.string(failure.code)
        w.literal(#","message":"#)
        w.string(failure.message)
        w.byte(.closeBrace)
    }

    private static func writeOptional(_ text: String?, to w: inout JSONWriter) {
        if let text { w.string(text) } else { w.literal("null") }
    }

    // Bounds: a string takes at most 6 bytes per byte of UTF-8 (`\u00XX`), a number at most 24.

    static func bound(of items: ArraySlice<FeedItem>) -> Int {
        items.reduce(2) { sum, item in
            let strings =
                item.id.utf8.count + item.text.utf8.count + (item.author?.utf8.count ?? 0)
                + (item.title?.utf8.count ?? 0) + (item.url?.utf8.count ?? 0) + (item.image?.url.utf8.count ?? 0)
            return sum + 128 + 6 * strings
        }
    }

    private static func bound(of outcome: FeedOutcome) -> Int {
        switch outcome {
        case .page(let page):
            bound(of: page.items[...]) + 6
                * ((page.olderCursor?.value.utf8.count ?? 0) + (page.newerCursor?.value.utf8.count ?? 0))
        case .failure(let failure): 6 * (failure.code.utf8.count + failure.message.utf8.count)
        }
    }

    private static func bound(of answered: AnsweredRequest) -> Int {
        var bound = 160
        switch answered.request.request.position {
        case .newest: break
        case .olderThan(let cursor), .newerThan(let cursor): bound += 6 * cursor.value.utf8.count
        }
        if case .failed(let failure) = answered.outcome {
            bound += 6 * (failure.code.utf8.count + failure.message.utf8.count)
        }
        return bound
    }
}
