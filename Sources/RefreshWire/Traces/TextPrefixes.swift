/// The beginnings the page's inputs share, which ``OperationLog`` keeps as one byte instead of their text: a
/// recorded input keeps the rest of its text, and reading the log puts the beginning back, so the trace holds
/// the same bytes (a text that begins otherwise is kept whole).
///
/// Nearly every input of a loaded server is a drag's `touch` `move`, whose text (web/js/pointerInput.js) begins
/// with the same bytes as every other's: kept whole, each input grew its session's log by its whole text, held
/// until the next snapshot and written to fresh memory; with its beginning as one byte, by the rest. Finding the
/// beginning costs less than the memory and cold writes it saves on every input (docs/PERFORMANCE.md, "Cold
/// lines"; the figures in "The trace's records").
enum TextPrefixes {
    /// How many there are: ``prefix(_:)`` takes 0 up to this.
    static let count = 5

    /// The beginning of number `index`. The numbers are recorded: a new beginning takes the next one.
    @inline(__always)
    static func prefix(_ index: Int) -> StaticString {
        switch index {
        case 0: #"{"type":"touch","phase":"move","dx":"#
        case 1: #"{"type":"touch","phase":"start","dx":"#
        case 2: #"{"type":"touch","phase":"end","dx":"#
        case 3: #"{"type":"touch","phase":"cancel","dx":"#
        default: #"{"type":"wheel","dx":"#
        }
    }

    /// The number of the beginning `text` starts with, and that beginning's length; `nil` when it starts with
    /// none of them. Tried in their order, the most frequent (`move`) first: one comparison for most inputs.
    @inline(__always)
    static func match(_ text: UnsafeRawBufferPointer) -> (index: UInt8, count: Int)? {
        for index in 0..<count {
            let prefix = prefix(index)
            if starts(text, with: prefix) { return (UInt8(index), prefix.utf8CodeUnitCount) }
        }
        return nil
    }

    /// Whether `text` starts with `prefix` (at least 8 bytes long), compared 8 bytes at a time (the last 8 of the
    /// prefix in one more, overlapping, comparison), not byte by byte (docs/PERFORMANCE.md, "The touch decode").
    @inline(__always)
    private static func starts(_ text: UnsafeRawBufferPointer, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard text.count >= count, let base = text.baseAddress else { return false }
        let expected = UnsafeRawPointer(prefix.utf8Start)
        var offset = 0
        while offset &+ 8 <= count {
            guard word(base, offset) == word(expected, offset) else { return false }
            offset &+= 8
        }
        return offset == count || word(base, count &- 8) == word(expected, count &- 8)
    }

    @inline(__always)
    private static func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
}
