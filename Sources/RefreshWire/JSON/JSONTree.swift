/// A JSON value as a tree, read from text the wire's validating reader accepted (``JSONText``) and written by the
/// wire's writer (``JSONWriter``): for documents read or written whole and rarely, where a tree is simpler than
/// the cursor the messages are read with. The wire's, so that every JSON the server takes or makes (a message,
/// a preset file, a JSON Feed, a posted item, an HTTP error) goes through one reader and one writer.
package enum JSONTree: Sendable, Equatable {
    /// Members in the text's order; a repeated key keeps its last value, as the wire's reader does.
    case object([(key: String, value: JSONTree)])
    case array([JSONTree])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The tree of `text`, or the reader's error (the first syntax problem, `not JSON: … at byte N`) when it is
    /// not one JSON value nested at most `maxDepth` (≤ 64) deep.
    package static func read(_ text: [UInt8], maxDepth: Int = 16) throws(WireError) -> JSONTree {
        let result = text.withUnsafeBytes { bytes in
            Result { () throws(WireError) in try read(bytes, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// ``read(_:maxDepth:)`` for bytes held elsewhere (a `Data`'s).
    package static func read(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 16) throws(WireError) -> JSONTree {
        let json = JSONText(bytes)
        let outline = try json.validate(maxDepth: maxDepth)
        return tree(json, at: outline.start)
    }

    /// The tree of the value starting at `index` of validated text (its depth is bounded by the validation).
    static func tree(_ json: JSONText, at index: Int) -> JSONTree {
        switch json.kind(at: index) {
        case .object:
            var members: [(key: String, value: JSONTree)] = []
            try? json.forEachMember(ofObjectAt: index) { key, value in
                let name = json.makeString(key)
                members.removeAll { $0.key == name }
                members.append((name, tree(json, at: value)))
            }
            return .object(members)
        case .array:
            var elements: [JSONTree] = []
            try? json.forEachElement(ofArrayAt: index) { elements.append(tree(json, at: $0)) }
            return .array(elements)
        case .string: return .string(json.makeString(json.string(at: index)))
        case .number: return .number(json.number(at: index) ?? .nan)
        case .bool: return .bool(json.byte(index) == .t)
        case .null: return .null
        }
    }

    /// What kind of value this is, as an error names it.
    package var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }

    package static func == (lhs: JSONTree, rhs: JSONTree) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }
}

// MARK: - Reading a member

extension JSONTree {
    /// The members, when this is an object.
    package var members: [(key: String, value: JSONTree)]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The value of the member `key`, when this is an object that has it.
    package subscript(key: String) -> JSONTree? {
        members?.first { $0.key == key }?.value
    }

    /// The elements, when this is an array.
    package var elements: [JSONTree]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The text, when this is a string.
    package var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The value, when this is a number.
    package var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }
}

// MARK: - Writing

extension JSONTree {
    /// The JSON text of the tree, compact, members in the tree's order, numbers as the wire writes them
    /// (``JSONWriter/exact(_:)``: the fewest decimals that read back as the same `Double`).
    package var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// ``text``'s UTF-8.
    package var bytes: [UInt8] {
        var buffer: [UInt8] = []
        appendJSON(to: &buffer, bound: bound) { write(&$0) }
        return buffer
    }

    /// At least the bytes ``write(_:)`` writes (a string's bytes may each become a six-byte `\u00XX`; a number is
    /// at most 24); ``appendJSON(to:bound:_:)`` tries again with more room if not.
    private var bound: Int {
        switch self {
        case .object(let members): members.reduce(2) { $0 + 8 + 6 * $1.key.utf8.count + $1.value.bound }
        case .array(let elements): elements.reduce(2) { $0 + 1 + $1.bound }
        case .string(let text): 2 + 6 * text.utf8.count
        case .number: 24
        case .bool, .null: 5
        }
    }

    private func write(_ w: inout JSONWriter) {
        switch self {
        case .object(let members):
            w.byte(.openBrace)
            for (index, member) in members.enumerated() {
                if index > 0 { w.byte(.comma) }
                w.string(member.key)
                w.byte(.colon)
                member.value.write(&w)
            }
            w.byte(.closeBrace)
        case .array(let elements):
            w.byte(.openBracket)
            for (index, element) in elements.enumerated() {
                if index > 0 { w.byte(.comma) }
                element.write(&w)
            }
            w.byte(.closeBracket)
        case .string(let text): w.string(text)
        case .number(let value): w.exact(value)
        case .bool(let value): w.bool(value)
        case .null: w.literal("null")
        }
    }
}
