/// A JSON value as a tree, read from text the wire's validating reader accepted (``JSONText``): for documents
/// read whole and rarely, such as a preset file, where every problem is listed rather than the first.
enum JSONTree: Sendable {
    /// Members in the text's order; a repeated key keeps its last value, as the wire's reader does.
    case object([(key: String, value: JSONTree)])
    case array([JSONTree])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The tree of `text`, or the reader's error (the first syntax problem) when it is not one JSON value
    /// nested at most `maxDepth` deep.
    static func read(_ text: [UInt8], maxDepth: Int = 16) throws(WireError) -> JSONTree {
        let result = text.withUnsafeBytes { bytes -> Result<JSONTree, WireError> in
            let json = JSONText(bytes)
            do throws(WireError) {
                let outline = try json.validate(maxDepth: maxDepth)
                return .success(tree(json, at: outline.start))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
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
    var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }
}
