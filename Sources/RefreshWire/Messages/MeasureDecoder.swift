import RefreshKit

/// Reads the page's `measure` message (docs/PROTOCOL.md, "measure"): the heights of the rows it laid out.
///
/// ```
/// {"type":"measure","seq":12,"width":390,"rows":[["42",88.5],["41",72]]}
/// ```
/// `width` is the width the rows were laid out at (the session's viewport width); each row is `[id, height]`,
/// at most ``MessageDecoder/maxMeasuredRows`` of them. The decoder checks the shape (errors name the row:
/// `measure.rows[3][1] must be a finite number`); heights' ranges and the rows' ids are the engine's to check
/// (``ListModel/apply(_:at:)`` refuses the batch naming the row).
extension MessageDecoder {
    /// The most rows one `measure` may carry.
    public static let maxMeasuredRows = 256

    /// A `measure` and its `seq`. An error about another field carries the `seq` when that is valid.
    func decodeMeasure(_ r: FieldReader, _ object: Int) throws(WireError) -> (MeasureInput, UInt64?) {
        var width: Int?
        var rows: Int?
        var seq: Int?
        try r.text.forEachMember(ofObjectAt: object) { key, value in
            if r.text.equals(key, "width") {
                width = value
            } else if r.text.equals(key, "rows") {
                rows = value
            } else if r.text.equals(key, "seq") {
                seq = value
            }
        }
        let sequence = Result { () throws(WireError) in try r.sequenceNumber(seq, "measure.seq") }
        do throws(WireError) {
            let measured = try r.requiredNumber(width, "measure.width")
            guard measured > 0, measured <= limits.maxViewport else {
                throw r.outOfRange("measure.width must be above 0 and at most \(Int(limits.maxViewport))")
            }
            let batch = MeasureInput(width: measured, rows: try measuredRows(r, rows))
            return (batch, try sequence.get())
        } catch {
            throw error.answering(seq: try? sequence.get())
        }
    }

    /// The `rows` of a `measure`: `[id, height]` pairs.
    private func measuredRows(_ r: FieldReader, _ position: Int?) throws(WireError) -> [RowMeasurement] {
        guard let position else { throw r.missing("measure.rows") }
        guard r.text.kind(at: position) == .array else { throw r.badField("measure.rows must be an array") }
        var rows: [RowMeasurement] = []
        try r.text.forEachElement(ofArrayAt: position) { (element: Int) throws(WireError) in
            let name = "measure.rows[\(rows.count)]"
            guard rows.count < Self.maxMeasuredRows else {
                throw r.outOfRange("measure.rows must hold at most \(Self.maxMeasuredRows) rows")
            }
            guard r.text.kind(at: element) == .array else { throw r.badField("\(name) must be [id, height]") }
            var parts: [Int] = []
            try r.text.forEachElement(ofArrayAt: element) { (part: Int) throws(WireError) in parts.append(part) }
            guard parts.count == 2 else { throw r.badField("\(name) must be [id, height]") }
            guard let id = try r.string(parts[0], "\(name)[0]"), !id.isEmpty else {
                throw r.badField("\(name)[0] must be a row id (a non-empty string)")
            }
            rows.append(RowMeasurement(id: id, height: try r.requiredNumber(parts[1], "\(name)[1]")))
        }
        return rows
    }
}
