import CQREncode

/// A QR Code symbol (ISO/IEC 18004) for a short text such as a session link, encoded by Debian's libqrencode.
///
/// Byte mode (the text's UTF-8, as a phone camera reads a URL) at error-correction level M (about 15 % of the
/// symbol can be lost), the smallest version that holds the text. The symbol is a square of `size × size`
/// modules; ``isDark(row:column:)`` reads one. The quiet zone (4 light modules around the symbol, required by
/// the standard) is not included: renderers add it.
public struct QRCode: Sendable, Equatable {
    /// Modules per side (21 for version 1, +4 per version).
    public let size: Int
    /// The symbol's version, 1…40.
    public let version: Int
    private let modules: [Bool]

    /// The longest text accepted: a share link is well under it, and a version-10 symbol (57 modules) still
    /// scans from a terminal.
    public static let maxTextBytes = 200

    /// Encodes `text`; nil when it is empty, longer than ``maxTextBytes`` or the encoder fails.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= Self.maxTextBytes,
            let symbol = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M)
        else { return nil }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        // libqrencode: one byte per module, bit 0 set for a dark module (qrencode.h, "QRcode class").
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
        size = width
        version = Int(symbol.pointee.version)
        modules = data.map { $0 & 1 == 1 }
    }

    /// Whether the module at `row`, `column` (0-based, from the top left) is dark; outside the symbol: light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }
}
