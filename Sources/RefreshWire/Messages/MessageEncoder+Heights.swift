import RefreshKit

extension MessageEncoder {
    /// Appends a `heights` message to `buffer` (docs/PROTOCOL.md, "heights"): row heights the engine accepted,
    /// `[id, height]` pairs, each height written so that it reads back as the very same number.
    ///
    /// ```
    /// {"type":"heights","rows":[["42",88.5],["41",72]]}
    /// ```
    public func encodeHeights(_ rows: [RowMeasurement], into buffer: inout [UInt8]) {
        let bound = rows.reduce(48) { $0 + 32 + 6 * $1.id.utf8.count }
        appendJSON(to: &buffer, bound: bound) { w in
            w.literal(#"{"type":"heights","rows":["#)
            for (index, row) in rows.enumerated() {
                if index > 0 { w.byte(.comma) }
                w.byte(.openBracket)
                w.string(row.id)
                w.byte(.comma)
                w.exact(row.height)
                w.byte(.closeBracket)
            }
            w.literal("]}")
        }
    }
}
