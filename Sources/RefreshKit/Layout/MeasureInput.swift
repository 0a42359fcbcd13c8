/// The page's `measure` message as an input (docs/PROTOCOL.md, "measure"; docs/LAYOUT.md, "Wiring"): the
/// heights of the rows it laid out, at the width it laid them out.
///
/// Applied by ``ListModel/apply(_:at:)-(Input,_)`` all or nothing. A batch made at a width other than the
/// session's viewport width is stale: ignored without error (the page measures again) and counted
/// (``SourcePager/staleMeasurements``).
public struct MeasureInput: Hashable, Sendable {
    /// The width the page laid the rows out at, CSS px (the session's viewport width when it measured).
    public var width: Double
    /// The rows' heights, in any order; a row named twice takes its last height.
    public var rows: [RowMeasurement]

    /// A batch of `rows` measured at `width`.
    public init(width: Double, rows: [RowMeasurement]) {
        self.width = width
        self.rows = rows
    }
}
