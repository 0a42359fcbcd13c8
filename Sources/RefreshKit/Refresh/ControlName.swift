/// The name of the page's control that draws an edge (docs/CONTROLS.md): 1 to 64 characters of `A`–`Z`, `a`–`z`,
/// `0`–`9`, `_` and `-` (``isValid(_:)``: the one rule for a control's name, in a configuration, a preset file and
/// the server's `--controls` folder).
///
/// The characters are kept inline rather than in a `String`, so that ``EdgeConfiguration`` and the edge controls
/// that hold it stay plain values that are copied bit for bit: the engine copies its edge controls on every step,
/// and with a `String` among their fields every copy went through Swift's value witnesses with a retain and a
/// release (docs/PERFORMANCE.md, "No copies per input").
public struct ControlName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The longest name, in characters.
    public static let maximumLength = 64

    private typealias Storage = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private var storage: Storage = (0, 0, 0, 0, 0, 0, 0, 0)
    private var length: UInt8 = 0

    /// Whether `text` is a valid name: 1 to ``maximumLength`` characters of `A`–`Z`, `a`–`z`, `0`–`9`, `_` and `-`.
    public static func isValid(_ text: some StringProtocol) -> Bool {
        (1...maximumLength).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    /// The name `text`, or nil when it is not a valid name (empty, too long, or another character).
    public init?(validating text: String) {
        guard Self.isValid(text) else { return nil }
        withUnsafeMutableBytes(of: &storage) { raw in
            for (index, byte) in text.utf8.enumerated() { raw[index] = byte }
        }
        length = UInt8(text.utf8.count)
    }

    /// A name written in the code; it must be valid.
    public init(stringLiteral text: String) {
        guard let name = ControlName(validating: text) else { preconditionFailure("'\(text)' is not a control name") }
        self = name
    }

    /// The name as text.
    public var description: String {
        withUnsafeBytes(of: storage) { raw in
            String(decoding: UnsafeRawBufferPointer(rebasing: raw[0..<Int(length)]), as: UTF8.self)
        }
    }

    public static func == (a: ControlName, b: ControlName) -> Bool {
        a.length == b.length && a.storage.0 == b.storage.0 && a.storage.1 == b.storage.1
            && a.storage.2 == b.storage.2 && a.storage.3 == b.storage.3 && a.storage.4 == b.storage.4
            && a.storage.5 == b.storage.5 && a.storage.6 == b.storage.6 && a.storage.7 == b.storage.7
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(length)
        withUnsafeBytes(of: storage) { hasher.combine(bytes: $0) }
    }
}

// Its length, then its storage's words, as they are (a tuple has no `Codable` of its own).
extension ControlName: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        length = try container.decode(UInt8.self)
        storage = (
            try container.decode(UInt64.self), try container.decode(UInt64.self), try container.decode(UInt64.self),
            try container.decode(UInt64.self), try container.decode(UInt64.self), try container.decode(UInt64.self),
            try container.decode(UInt64.self), try container.decode(UInt64.self)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(length)
        let words = [storage.0, storage.1, storage.2, storage.3, storage.4, storage.5, storage.6, storage.7]
        for word in words { try container.encode(word) }
    }
}
