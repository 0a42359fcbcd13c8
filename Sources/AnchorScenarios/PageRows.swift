import RefreshKit

/// The page's side of measured rows in the anchoring scenarios: how tall it lays each row out at the session's
/// width, and the `measure` batches it sends (docs/PROTOCOL.md, "measure, heights"): a row when it comes within
/// a screen of the viewport, and again when its picture loads or the font changes.
///
/// A row is padding, an author line and its text wrapped at the width (at most six lines), plus the picture's
/// box once the picture has loaded (the feed does not say its size before: ``ScriptedFeed``). The metrics are
/// a web font's, not round numbers, so heights and the corrections they make are not multiples of a pixel.
public struct PageRows: Hashable, Sendable {
    /// A text face: the width of an average character and the height of a line, CSS px.
    public struct Font: Hashable, Sendable {
        public var characterWidth: Double
        public var lineHeight: Double

        /// The system font the page starts with.
        public static let fallback = Font(characterWidth: 7.3, lineHeight: 20.25)
        /// The web font that replaces it once loaded: wider, taller lines.
        public static let web = Font(characterWidth: 7.85, lineHeight: 21.6)
    }

    /// The width the page lays rows out at (the session's viewport width).
    public let width: Double
    /// The face the page lays text out with.
    public var font = Font.fallback
    /// The items whose picture the page has loaded (their box is in the row's height).
    public private(set) var loadedImages: Set<Int> = []
    /// What the page last sent for each row (the engine accepts every batch the scenarios send).
    public private(set) var sent: [String: Double] = [:]

    /// The most rows one `measure` message carries.
    public static let batchLimit = 256

    /// A page laying rows out at `width`, no picture loaded.
    public init(width: Double) {
        self.width = width
    }

    /// How tall item `number`'s row is laid out now.
    public func height(of number: Int) -> Double {
        let item = ScriptedFeed.item(number)
        let textWidth = width - 88
        let characters = Double(item.text.count) * font.characterWidth
        let lines = min(6, max(1, (characters / textWidth).rounded(.up)))
        var height = 14 + font.lineHeight + lines * font.lineHeight + 14
        if item.image != nil, loadedImages.contains(number) {
            let size = ScriptedFeed.imageSize(of: number)
            height += 8 + (width - 32) * size.height / size.width
        }
        return height
    }

    /// Marks the picture of item `number` as loaded (its row grows by the box once measured again).
    public mutating func loadImage(of number: Int) {
        loadedImages.insert(number)
    }

    /// The batches measuring `numbers` as laid out now (at most ``batchLimit`` rows each), remembered as sent.
    public mutating func measure(_ numbers: [Int]) -> [MeasureInput] {
        var batches: [MeasureInput] = []
        var start = 0
        while start < numbers.count {
            let slice = numbers[start..<min(numbers.count, start + Self.batchLimit)]
            let rows = slice.map { RowMeasurement(id: "\($0)", height: height(of: $0)) }
            for row in rows { sent[row.id] = row.height }
            batches.append(MeasureInput(width: width, rows: rows))
            start += Self.batchLimit
        }
        return batches
    }

    /// The batches for the rows of `layout` within a screen of the viewport at `offset` that the engine has not
    /// got a measurement of (new rows, and rows of a page loaded back, which come back at the estimate): what the
    /// page sends after drawing a frame. (A row measured already is measured again only when something about it
    /// changes: ``measure(_:)``.)
    public mutating func measureInView(_ layout: RowLayout, offset: Double, viewportHeight: Double) -> [MeasureInput] {
        guard let first = layout.row(at: max(0, offset - viewportHeight)),
            let last = layout.row(at: offset + 2 * viewportHeight)
        else { return [] }
        let numbers = (first...last).compactMap { row in
            layout.isMeasured(row: row) ? nil : layout.id(ofRow: row).flatMap { Int($0) }
        }
        return measure(numbers)
    }
}
