/// A ``QRCode`` drawn in a terminal: two module rows per text line with Unicode half blocks (U+2580 ▀, U+2584 ▄,
/// U+2588 █), light modules drawn, dark ones left as the terminal's background, inside the standard's quiet zone
/// of 4 light modules.
///
/// With `colors` the lines set black on white with ANSI escapes (SGR 30/47 … 0), so the code reads the same on
/// light and dark terminals; without, they rely on a dark background, as `qrencode -t UTF8` does.
public struct TerminalQRCode: Sendable {
    public let code: QRCode
    public var colors: Bool

    /// The light border around the symbol, in modules (ISO/IEC 18004 asks for 4).
    public static let quietZone = 4

    public init(_ code: QRCode, colors: Bool) {
        self.code = code
        self.colors = colors
    }

    /// The text lines, top to bottom, without line ends.
    public var lines: [String] {
        let zone = Self.quietZone
        let span = -zone..<(code.size + zone)
        var lines: [String] = []
        for top in stride(from: -zone, to: code.size + zone, by: 2) {
            var line = colors ? "\u{1B}[30;47m" : ""
            for column in span {
                let upper = !code.isDark(row: top, column: column)
                let lower = top + 1 < code.size + zone && !code.isDark(row: top + 1, column: column)
                line += Self.glyph(upperLight: upper, lowerLight: lower, colors: colors)
            }
            lines.append(line + (colors ? "\u{1B}[0m" : ""))
        }
        return lines
    }

    /// On a white background (colors) the dark modules are drawn; otherwise the light ones are.
    private static func glyph(upperLight: Bool, lowerLight: Bool, colors: Bool) -> String {
        let upper = colors ? !upperLight : upperLight
        let lower = colors ? !lowerLight : lowerLight
        switch (upper, lower) {
        case (true, true): return "\u{2588}"
        case (true, false): return "\u{2580}"
        case (false, true): return "\u{2584}"
        case (false, false): return " "
        }
    }
}
