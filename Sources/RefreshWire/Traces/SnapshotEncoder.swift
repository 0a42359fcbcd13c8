/// Writes an `Encodable` value as a ``SnapshotValue`` tree: how a ``SessionSnapshot`` turns the engine's state
/// into bytes. No Foundation: the wire module stays lean, and a `Double` is kept as its bit pattern, so it comes
/// back exactly.
public struct SnapshotEncoder {
    /// An encoder; it keeps nothing between calls.
    public init() {}

    /// `value` as a tree.
    public func encode(_ value: some Encodable) throws -> SnapshotValue {
        let node = Node()
        try value.encode(to: Writer(node: node, codingPath: []))
        return node.value
    }

    /// What one container or value writes to; its parent holds it until the tree is read out.
    final class Node {
        enum Content {
            case empty
            case single(SnapshotValue)
            case keyed([(String, Node)])
            case unkeyed([Node])
        }

        var content = Content.empty

        var value: SnapshotValue {
            switch content {
            case .empty: .object([])
            case .single(let value): value
            case .keyed(let members):
                .object(members.map { SnapshotValue.Member(key: $0.0, value: $0.1.value) })
            case .unkeyed(let elements): .array(elements.map(\.value))
            }
        }

        func set(_ value: SnapshotValue) { content = .single(value) }

        func keyedChild(_ key: String) -> Node {
            let child = Node()
            if case .keyed(var members) = content {
                content = .empty  // keeps the array uniquely referenced while it grows
                members.append((key, child))
                content = .keyed(members)
            } else {
                content = .keyed([(key, child)])
            }
            return child
        }

        func unkeyedChild() -> Node {
            let child = Node()
            if case .unkeyed(var elements) = content {
                content = .empty
                elements.append(child)
                content = .unkeyed(elements)
            } else {
                content = .unkeyed([child])
            }
            return child
        }

        var unkeyedCount: Int {
            if case .unkeyed(let elements) = content { return elements.count }
            return 0
        }
    }

    /// A plain value as a tree, or `nil` for a value that encodes itself.
    static func primitive(_ value: some Encodable) -> SnapshotValue? {
        switch value {
        case let value as Bool: .bool(value)
        case let value as String: .string(value)
        case let value as Double: .double(value.bitPattern)
        case let value as Float: .double(Double(value).bitPattern)
        case let value as Int: .int(Int64(value))
        case let value as Int8: .int(Int64(value))
        case let value as Int16: .int(Int64(value))
        case let value as Int32: .int(Int64(value))
        case let value as Int64: .int(value)
        case let value as UInt: .uint(UInt64(value))
        case let value as UInt8: .uint(UInt64(value))
        case let value as UInt16: .uint(UInt64(value))
        case let value as UInt32: .uint(UInt64(value))
        case let value as UInt64: .uint(value)
        default: nil
        }
    }

    static func write(_ value: some Encodable, to node: Node, codingPath: [any CodingKey]) throws {
        if let primitive = primitive(value) {
            node.set(primitive)
        } else {
            try value.encode(to: Writer(node: node, codingPath: codingPath))
        }
    }

    struct Writer: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .keyed = node.content {} else { node.content = .keyed([]) }
            return KeyedEncodingContainer(KeyedWriter<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
            return UnkeyedWriter(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleWriter(node: node, codingPath: codingPath)
        }
    }

    struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { node.keyedChild(key.stringValue).set(.null) }

        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            try SnapshotEncoder.write(value, to: node.keyedChild(key.stringValue), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = node.keyedChild(key.stringValue)
            child.content = .keyed([])
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.keyedChild(key.stringValue)
            child.content = .unkeyed([])
            return UnkeyedWriter(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            Writer(node: node.keyedChild("super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            Writer(node: node.keyedChild(key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct UnkeyedWriter: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.unkeyedCount }

        mutating func encodeNil() throws { node.unkeyedChild().set(.null) }

        mutating func encode(_ value: some Encodable) throws {
            try SnapshotEncoder.write(value, to: node.unkeyedChild(), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = node.unkeyedChild()
            child.content = .keyed([])
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(node: child, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = node.unkeyedChild()
            child.content = .unkeyed([])
            return UnkeyedWriter(node: child, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder { Writer(node: node.unkeyedChild(), codingPath: codingPath) }
    }

    struct SingleWriter: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.set(.null) }

        mutating func encode(_ value: some Encodable) throws {
            try SnapshotEncoder.write(value, to: node, codingPath: codingPath)
        }
    }
}
