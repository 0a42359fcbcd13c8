/// A session's members as a session store keeps them beside its trace (docs/SCALING.md):
/// `{"next":N,"members":[[number,"hash"],…]}`, the number the next new member gets and each member's number and
/// token hash (64 hex digits; a store never holds a token). Written by the wire's writer and read by its
/// validating reader, as every other JSON the server makes or takes.
public enum StoredMembersJSON {
    /// One member: its number and the hash of its token.
    public typealias Member = (number: Int, tokenHash: String)

    /// The JSON of `members`, `next` being the number the next new member gets.
    public static func encode(next: Int, members: [Member]) -> [UInt8] {
        var bytes: [UInt8] = []
        let bound = 48 + members.reduce(0) { $0 + 28 + 6 * $1.tokenHash.utf8.count }
        appendJSON(to: &bytes, bound: bound) { w in
            w.literal(#"{"next":"#)
            w.integer(Int64(next))
            w.literal(#","members":["#)
            for (index, member) in members.enumerated() {
                if index > 0 { w.byte(.comma) }
                w.byte(.openBracket)
                w.integer(Int64(member.number))
                w.byte(.comma)
                w.string(member.tokenHash)
                w.byte(.closeBracket)
            }
            w.literal("]}")
        }
        return bytes
    }

    /// Reads ``encode(next:members:)``'s form back; `nil` when `json` is not that form (any member order, any
    /// whitespace; numbers as plain integers; each hash 64 characters).
    public static func decode(_ json: [UInt8]) -> (next: Int, members: [Member])? {
        json.withUnsafeBytes { decode(JSONText($0)) }
    }

    private static func decode(_ text: JSONText) -> (next: Int, members: [Member])? {
        guard let outline = try? text.validate(maxDepth: 4), outline.isObject else { return nil }
        var fields: [String: Int] = [:]
        guard
            (try? text.forEachMember(ofObjectAt: outline.start) { key, value in fields[text.makeString(key)] = value })
                != nil,
            let nextPosition = fields["next"], let next = integer(text, nextPosition),
            let listPosition = fields["members"], text.kind(at: listPosition) == .array
        else { return nil }
        var members: [Member] = []
        var wellFormed = true
        _ = try? text.forEachElement(ofArrayAt: listPosition) { position in
            var parts: [Int] = []
            if text.kind(at: position) == .array {
                _ = try? text.forEachElement(ofArrayAt: position) { parts.append($0) }
            }
            guard parts.count == 2, let number = integer(text, parts[0]), text.kind(at: parts[1]) == .string
            else {
                wellFormed = false
                return
            }
            let hash = text.makeString(text.string(at: parts[1]))
            guard hash.utf8.count == 64 else {
                wellFormed = false
                return
            }
            members.append((number, hash))
        }
        return wellFormed ? (next, members) : nil
    }

    private static func integer(_ text: JSONText, _ position: Int) -> Int? {
        Trace.integer(text, position).flatMap { Int(exactly: $0) }
    }
}
