import RefreshKit
import Testing

/// The namespace of the layout suites, so that `swift test --filter Layout` selects exactly them.
@Suite enum LayoutTests {}

extension RowLayout {
    /// The screen y of the row `row`'s top at content offset `contentOffset`.
    func screenY(ofRow row: Int, contentOffset: Double) -> Double {
        y(ofRow: row) - contentOffset
    }
}

/// Ids "prefix0" … for `count` rows from `first`.
func rowIDs(_ prefix: String, _ first: Int, _ count: Int) -> [String] {
    (first..<(first + count)).map { "\(prefix)\($0)" }
}
