/// Reads a `Decodable` value back from the ``SnapshotValue`` tree ``SnapshotEncoder`` wrote. A tree that does
/// not fit the type (a missing key, a value of another kind, a number out of range) throws a `DecodingError`
/// naming where.
public struct SnapshotDecoder {
    /// A decoder; it keeps nothing between calls.
    public init() {}

    /// The value of type `Value` that `tree` holds. Throws a `DecodingError` when the tree does not fit it.
    public func decode<Value: Decodable>(_: Value.Type, from tree: SnapshotValue) throws -> Value {
        try Self.read(Value.self, from: tree, codingPath: [])
    }

    static func read<Value: Decodable>(_: Value.Type, from tree: SnapshotValue, codingPath: [any CodingKey]) throws
        -> Value
    {
        if let primitive = try primitive(Value.self, from: tree, codingPath: codingPath) { return primitive }
        return try Value(from: Reader(tree: tree, codingPath: codingPath))
    }

    /// A plain value of type `Value` from `tree`, or `nil` when `Value` decodes itself.
    private static func primitive<Value>(_: Value.Type, from tree: SnapshotValue, codingPath: [any CodingKey]) throws
        -> Value?
    {
        func mismatch(_ expected: String) -> DecodingError {
            DecodingError.typeMismatch(
                Value.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(tree)"))
        }
        func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
            let exact: I? =
                switch tree {
                case .int(let value): I(exactly: value)
                case .uint(let value): I(exactly: value)
                default: throw mismatch("an integer")
                }
            guard let exact else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "\(tree) does not fit \(I.self)"))
            }
            return exact
        }
        switch Value.self {
        case is Bool.Type:
            guard case .bool(let value) = tree else { throw mismatch("a boolean") }
            return value as? Value
        case is String.Type:
            guard case .string(let value) = tree else { throw mismatch("a string") }
            return value as? Value
        case is Double.Type:
            guard case .double(let bits) = tree else { throw mismatch("a double") }
            return Double(bitPattern: bits) as? Value
        case is Float.Type:
            guard case .double(let bits) = tree else { throw mismatch("a double") }
            return Float(Double(bitPattern: bits)) as? Value
        case is Int.Type: return try integer(Int.self) as? Value
        case is Int8.Type: return try integer(Int8.self) as? Value
        case is Int16.Type: return try integer(Int16.self) as? Value
        case is Int32.Type: return try integer(Int32.self) as? Value
        case is Int64.Type: return try integer(Int64.self) as? Value
        case is UInt.Type: return try integer(UInt.self) as? Value
        case is UInt8.Type: return try integer(UInt8.self) as? Value
        case is UInt16.Type: return try integer(UInt16.self) as? Value
        case is UInt32.Type: return try integer(UInt32.self) as? Value
        case is UInt64.Type: return try integer(UInt64.self) as? Value
        default: return nil
        }
    }

    struct Reader: Decoder {
        let tree: SnapshotValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = tree else {
                throw DecodingError.typeMismatch(
                    [String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object"))
            }
            return KeyedDecodingContainer(KeyedReader<Key>(members: members, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = tree else {
                throw DecodingError.typeMismatch(
                    [Any].self, .init(codingPath: codingPath, debugDescription: "expected an array"))
            }
            return UnkeyedReader(elements: elements, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleReader(tree: tree, codingPath: codingPath)
        }
    }

    struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: [String: SnapshotValue]
        let keys: [String]
        let codingPath: [any CodingKey]

        init(members: [SnapshotValue.Member], codingPath: [any CodingKey]) {
            var values: [String: SnapshotValue] = [:]
            for member in members { values[member.key] = member.value }
            self.values = values
            keys = members.map(\.key)
            self.codingPath = codingPath
        }

        var allKeys: [Key] { keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

        private func value(_ key: Key) throws -> SnapshotValue {
            guard let value = values[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "no \"\(key.stringValue)\" in the snapshot"))
            }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

        func decode<Value: Decodable>(_: Value.Type, forKey key: Key) throws -> Value {
            try SnapshotDecoder.read(Value.self, from: value(key), codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try Reader(tree: value(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try Reader(tree: value(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            Reader(tree: values["super"] ?? .null, codingPath: codingPath)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            Reader(tree: try value(key), codingPath: codingPath + [key])
        }
    }

    struct UnkeyedReader: UnkeyedDecodingContainer {
        let elements: [SnapshotValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(elements: [SnapshotValue], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next<Value>(_: Value.Type) throws -> SnapshotValue {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Value.self, .init(codingPath: codingPath, debugDescription: "the array ends here"))
            }
            defer { currentIndex += 1 }
            return elements[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<Value: Decodable>(_: Value.Type) throws -> Value {
            try SnapshotDecoder.read(Value.self, from: next(Value.self), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try Reader(tree: next([String: Any].self), codingPath: codingPath).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try Reader(tree: next([Any].self), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            Reader(tree: try next(Any.self), codingPath: codingPath)
        }
    }

    struct SingleReader: SingleValueDecodingContainer {
        let tree: SnapshotValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { tree == .null }

        func decode<Value: Decodable>(_: Value.Type) throws -> Value {
            try SnapshotDecoder.read(Value.self, from: tree, codingPath: codingPath)
        }
    }
}
