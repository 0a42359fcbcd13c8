/// A value as a ``SessionSnapshot`` stores it: the tree a `Codable` type writes through ``SnapshotEncoder``, and
/// its compact binary form (``write(into:)``, ``read(_:)``).
///
/// The form is a tag byte, then the value:
///
/// | tag | value | then |
/// |---|---|---|
/// | 0 | nil | — |
/// | 1, 2 | false, true | — |
/// | 3 | a signed integer | its zigzag LEB128 varint |
/// | 4 | an unsigned integer | its LEB128 varint |
/// | 5 | a `Double` | its 64-bit IEEE 754 pattern, little-endian: every value comes back bit for bit (−0.0, subnormals, infinities, NaN payloads) |
/// | 6 | a string | its UTF-8 length (varint), then its bytes |
/// | 7 | an array | its count (varint), then each element |
/// | 8 | an object | its count (varint), then each member: its key (as a string, without a tag), then its value |
///
/// An object's members keep the order the type wrote them in.
public indirect enum SnapshotValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    /// A `Double`'s bit pattern.
    case double(UInt64)
    case string(String)
    case array([SnapshotValue])
    case object([Member])

    /// One member of an object.
    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: SnapshotValue

        public init(key: String, value: SnapshotValue) {
            self.key = key
            self.value = value
        }
    }

    private enum Tag {
        static let null: UInt8 = 0
        static let `false`: UInt8 = 1
        static let `true`: UInt8 = 2
        static let int: UInt8 = 3
        static let uint: UInt8 = 4
        static let double: UInt8 = 5
        static let string: UInt8 = 6
        static let array: UInt8 = 7
        static let object: UInt8 = 8
    }

    /// Appends the value's binary form to `buffer`.
    public func write(into buffer: inout [UInt8]) {
        switch self {
        case .null: buffer.append(Tag.null)
        case .bool(let value): buffer.append(value ? Tag.true : Tag.false)
        case .int(let value):
            buffer.append(Tag.int)
            Self.putVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), into: &buffer)
        case .uint(let value):
            buffer.append(Tag.uint)
            Self.putVarint(value, into: &buffer)
        case .double(let bits):
            buffer.append(Tag.double)
            for shift in stride(from: 0, to: 64, by: 8) {
                buffer.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
            }
        case .string(let text):
            buffer.append(Tag.string)
            Self.putString(text, into: &buffer)
        case .array(let elements):
            buffer.append(Tag.array)
            Self.putVarint(UInt64(elements.count), into: &buffer)
            for element in elements { element.write(into: &buffer) }
        case .object(let members):
            buffer.append(Tag.object)
            Self.putVarint(UInt64(members.count), into: &buffer)
            for member in members {
                Self.putString(member.key, into: &buffer)
                member.value.write(into: &buffer)
            }
        }
    }

    /// Reads one value from the binary form in `bytes`, which must hold exactly that value.
    public static func read(_ bytes: ArraySlice<UInt8>) throws(TraceError) -> SnapshotValue {
        var reader = Reader(bytes: bytes, at: bytes.startIndex)
        let value = try reader.value(depth: 0)
        guard reader.at == bytes.endIndex else { throw TraceError("the snapshot has bytes after its state") }
        return value
    }

    private static func putVarint(_ value: UInt64, into buffer: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
    }

    private static func putString(_ text: String, into buffer: inout [UInt8]) {
        putVarint(UInt64(text.utf8.count), into: &buffer)
        buffer.append(contentsOf: text.utf8)
    }

    /// Reads the binary form, refusing what is cut short, nested too deep or not a value.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var at: Int

        /// Deeper than any engine state nests.
        static let maxDepth = 64

        mutating func value(depth: Int) throws(TraceError) -> SnapshotValue {
            guard depth <= Self.maxDepth else { throw TraceError("the snapshot nests too deep") }
            switch try byte() {
            case Tag.null: return .null
            case Tag.false: return .bool(false)
            case Tag.true: return .bool(true)
            case Tag.int:
                let raw = try varint()
                return .int(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
            case Tag.uint: return .uint(try varint())
            case Tag.double:
                guard bytes.endIndex - at >= 8 else { throw TraceError("the snapshot is cut short") }
                var bits: UInt64 = 0
                for index in 0..<8 { bits |= UInt64(bytes[at + index]) << UInt64(8 * index) }
                at += 8
                return .double(bits)
            case Tag.string: return .string(try string())
            case Tag.array:
                let count = try length()
                var elements: [SnapshotValue] = []
                elements.reserveCapacity(count)
                for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
                return .array(elements)
            case Tag.object:
                let count = try length()
                var members: [Member] = []
                members.reserveCapacity(count)
                for _ in 0..<count {
                    let key = try string()
                    members.append(Member(key: key, value: try value(depth: depth + 1)))
                }
                return .object(members)
            case let tag:
                throw TraceError("the snapshot holds an unknown tag \(tag)")
            }
        }

        mutating func byte() throws(TraceError) -> UInt8 {
            guard at < bytes.endIndex else { throw TraceError("the snapshot is cut short") }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func varint() throws(TraceError) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = try byte()
                guard shift < 64 else { throw TraceError("the snapshot holds a number too large") }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }

        /// A count or a length: no more than the bytes left (every element takes at least one).
        mutating func length() throws(TraceError) -> Int {
            let count = try varint()
            guard count <= UInt64(bytes.endIndex - at) else { throw TraceError("the snapshot is cut short") }
            return Int(count)
        }

        mutating func string() throws(TraceError) -> String {
            let count = try length()
            defer { at += count }
            guard let text = String(validating: bytes[at..<at + count], as: UTF8.self) else {
                throw TraceError("the snapshot holds a string that is not UTF-8")
            }
            return text
        }
    }
}
