import RefreshKit

/// The `rows` message of one ``RowsUpdate`` (docs/PROTOCOL.md, "rows"): what the list's rows did, in the
/// order the engine did it. `count` is the rows after the change, placeholders included, except for `drop`,
/// whose `count` is the rows dropped.
///
///     {"type":"rows","op":"replace","items":[…],"count":N}              (`"above":A,"below":B` when not 0)
///     {"type":"rows","op":"prepend"|"append","items":[…],"count":N}
///     {"type":"rows","op":"drop","at":"top"|"bottom","count":D}
///     {"type":"rows","op":"reload","at":"top"|"bottom","items":[…],"count":N}
///
/// A `replace`, `prepend` or `append` without placeholders is written byte for byte as ``encodeRows(_:of:into:)``
/// writes it.
extension MessageEncoder {
    /// Appends the `rows` message of `update` to `buffer`.
    public func encodeRows(_ update: RowsUpdate, into buffer: inout [UInt8]) {
        let items: [FeedItem]
        switch update.change {
        case .replaced(let all, _, _): items = all
        case .prepended(let added), .appended(let added), .reloaded(_, let added, _): items = added
        case .dropped: items = []
        }
        appendJSON(to: &buffer, bound: 160 + FeedJSON.bound(of: items[...])) { w in
            w.literal(#"{"type":"rows","op":""#)
            switch update.change {
            case .replaced(_, let above, let below):
                w.literal(#"replace","items":"#)
                FeedJSON.writeItems(items[...], to: &w)
                w.literal(#","count":"#)
                w.integer(Int64(update.rowCount))
                if above != 0 || below != 0 {
                    w.literal(#","above":"#)
                    w.integer(Int64(above))
                    w.literal(#","below":"#)
                    w.integer(Int64(below))
                }
            case .prepended, .appended:
                if case .prepended = update.change { w.literal("prepend") } else { w.literal("append") }
                w.literal(#"","items":"#)
                FeedJSON.writeItems(items[...], to: &w)
                w.literal(#","count":"#)
                w.integer(Int64(update.rowCount))
            case .dropped(let edge, let count):
                w.literal(#"drop","at":""#)
                w.literal(edge == .above ? "top" : "bottom")
                w.literal(#"","count":"#)
                w.integer(Int64(count))
            case .reloaded(let edge, _, _):
                w.literal(#"reload","at":""#)
                w.literal(edge == .above ? "top" : "bottom")
                w.literal(#"","items":"#)
                FeedJSON.writeItems(items[...], to: &w)
                w.literal(#","count":"#)
                w.integer(Int64(update.rowCount))
            }
            w.byte(.closeBrace)
        }
    }
}
