import RefreshKit

/// The messages of an external feed (docs/PROTOCOL.md, "Feed"): the source's answer as the trace records it
/// (`feed_answer`), and what the pages get: the loaded items (`rows`), the request log (`feed_request`) and
/// the count of items newer than the top one (`new_items`). An item is written as
/// `{"id","text","author"?,"title"?,"url"?,"section"?,"time","image"?:{"url","width"?,"height"?}}`, its `time` in
/// milliseconds since 1970.
extension MessageEncoder {
    /// Appends the `feed_answer` of `answer` to `buffer`: the text the host records and applies as member -1
    /// (``FeedAnswerDecoder`` reads it back). `ms` is written to the microsecond.
    public func encodeFeedAnswer(_ answer: FeedAnswerInput, into buffer: inout [UInt8]) {
        appendJSON(to: &buffer, bound: 160 + FeedJSON.bound(of: answer.outcome)) { w in
            w.literal(#"{"type":"feed_answer","request":"#)
            w.integer(Int64(answer.request))
            w.literal(#","ms":"#)
            w.fixed(answer.durationMs, decimals: 3)
            switch answer.outcome {
            case .page(let page):
                w.literal(#","items":"#)
                FeedJSON.writeItems(page.items[...], to: &w)
                w.literal(#","older":"#)
                FeedJSON.writeOptional(page.olderCursor?.value, to: &w)
                w.literal(#","newer":"#)
                FeedJSON.writeOptional(page.newerCursor?.value, to: &w)
                w.literal(#","hasMore":"#)
                w.bool(page.hasMore)
                if let above = page.above {
                    w.literal(#","above":"#)
                    w.integer(Int64(above))
                }
            case .failure(let failure):
                w.literal(#","error":"#)
                FeedJSON.writeFailure(failure, to: &w)
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
        appendJSON(to: &buffer, bound: 96 + FeedJSON.bound(of: part)) { w in
            w.literal(#"{"type":"rows","op":""#)
            w.literal(op)
            w.literal(#"","items":"#)
            FeedJSON.writeItems(part, to: &w)
            w.literal(#","count":"#)
            w.integer(Int64(items.count))
            w.byte(.closeBrace)
        }
    }

    /// Appends a `feed_request` message to `buffer`: one request to the source and how it ended (the debug
    /// panel's log; the failed state's message).
    public func encodeFeedRequest(_ answered: AnsweredRequest, into buffer: inout [UInt8]) {
        appendJSON(to: &buffer, bound: 64 + FeedJSON.bound(of: answered)) { w in
            w.literal(#"{"type":"feed_request","#)
            FeedJSON.writeRequestFields(answered, to: &w)
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
}
