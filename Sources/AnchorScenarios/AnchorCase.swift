/// The three changes of the rows above the first visible row that the anchoring scenarios make during a fling
/// (docs/PERFORMANCE.md, "Rows: anchoring").
public enum AnchorCase: String, CaseIterable, Hashable, Sendable {
    /// A refresh's answer while scrolled down: new rows go on top, above the visible one.
    case rowsInserted = "insert"
    /// The rows above the visible one measured again at new heights (a web font has loaded).
    case rowsRemeasured = "remeasure"
    /// Pictures in rows above the visible one load in several batches: each such row grows by its box.
    case imagesLoaded = "images"

    /// What the case does, for a table.
    public var title: String {
        switch self {
        case .rowsInserted: "rows inserted above (a refresh's answer)"
        case .rowsRemeasured: "rows above re-measured (a web font)"
        case .imagesLoaded: "images above load (several batches)"
        }
    }
}
