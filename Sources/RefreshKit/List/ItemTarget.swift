/// The row a `scrollToItem` command goes to (docs/PROTOCOL.md, "Commands"): a loaded item by its id, or a row by
/// its index in the whole list (0 = the newest row, placeholders of dropped pages included).
public enum ItemTarget: Hashable, Sendable {
    case id(String)
    case index(Int)
}

/// Where in the viewport a `scrollToItem` puts its row: its top at the viewport's top, its middle at the
/// middle, or its bottom at the bottom; the viewport less the insets (a refreshing control's, the app's).
public enum ItemAlignment: String, Hashable, Sendable, CaseIterable, Codable {
    case start
    case center
    case end
}
