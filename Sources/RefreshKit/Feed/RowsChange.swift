/// What an applied answer did to the loaded items (``SourcePager/lastRowsChange``), so a host sends its pages
/// only the change (the `rows` message, docs/PROTOCOL.md).
public enum RowsChange: Hashable, Sendable, Codable {
    /// Every item was replaced (a first page, or a refresh whose page did not reach the top item).
    case replaced
    /// This many items were put above the top item (a refresh whose page reached it).
    case prepended(Int)
    /// This many items were added below the last one (load-more).
    case appended(Int)
    /// This many new items came above the list's first item while its page is dropped (a refresh while scrolled
    /// far down): they are placeholders above the held pages, loaded when scrolled to (docs/LAYOUT.md, "The
    /// window, wired").
    case placeholdersOnTop(Int)
}
