/// A session's members as a session store keeps them beside its trace (docs/SCALING.md):
/// `{"next":N,"members":[[number,"hash","role"],…],"keys":{"drive":"hash","watch":"hash"}}`, the number the next new
/// member gets, each member's number, token hash (64 hex digits; a store never holds a token) and role, and the
/// hashes of the session's share keys by role (never the keys). Written by the wire's writer and read by its
/// validating reader, as every other JSON the server makes or takes. The form before roles (`[number,"hash"]`, no
/// `keys`) is still read: its members have no role (`nil`) and it has no keys.
public enum StoredMembersJSON {
    /// One member: its number, the hash of its token and its role.
    public typealias Member = (number: Int, tokenHash: String, role: MemberRole)
    /// One member as read: its role `nil` in the form before roles.
    public typealias ReadMember = (number: Int, tokenHash: String, role: MemberRole?)

    /// The JSON of `members`, `next` being the number the next new member gets, and `keys` the key hashes by role.
    public static func encode(next: Int, members: [Member], keys: [MemberRole: String] = [:]) -> [UInt8] {
        var bytes: [UInt8] = []
        let bound = 160 + members.reduce(0) { $0 + 40 + 6 * $1.tokenHash.utf8.count } + keys.count * 400
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
                w.byte(.comma)
                w.plainString(member.role.rawValue)
                w.byte(.closeBracket)
            }
            w.literal(#"],"keys":{"#)
            for (index, role) in MemberRole.allCases.filter({ keys[$0] != nil }).enumerated() {
                if index > 0 { w.byte(.comma) }
                w.plainString(role.rawValue)
                w.byte(.colon)
                w.string(keys[role]!)
            }
            w.literal("}}")
        }
        return bytes
    }

    /// Reads ``encode(next:members:keys:)``'s form back (or the form before roles); `nil` when `json` is neither
    /// (any member order, any whitespace; numbers as plain integers; each hash 64 characters; roles known).
    public static func decode(_ json: [UInt8]) -> (next: Int, members: [ReadMember], keys: [MemberRole: String])? {
        json.withUnsafeBytes { decode(JSONText($0)) }
    }

    private static func decode(_ text: JSONText) -> (next: Int, members: [ReadMember], keys: [MemberRole: String])? {
        guard let outline = try? text.validate(maxDepth: 4), outline.isObject else { return nil }
        var fields: [String: Int] = [:]
        guard
            (try? text.forEachMember(ofObjectAt: outline.start) { key, value in fields[text.makeString(key)] = value })
                != nil,
            let nextPosition = fields["next"], let next = integer(text, nextPosition),
            let listPosition = fields["members"], text.kind(at: listPosition) == .array
        else { return nil }
        var members: [ReadMember] = []
        var wellFormed = true
        _ = try? text.forEachElement(ofArrayAt: listPosition) { position in
            var parts: [Int] = []
            if text.kind(at: position) == .array {
                _ = try? text.forEachElement(ofArrayAt: position) { parts.append($0) }
            }
            guard (2...3).contains(parts.count), let number = integer(text, parts[0]),
                let hash = string(text, parts[1]), hash.utf8.count == 64
            else {
                wellFormed = false
                return
            }
            var role: MemberRole?
            if parts.count == 3 {
                role = string(text, parts[2]).flatMap(MemberRole.init(rawValue:))
                if role == nil { wellFormed = false }
            }
            members.append((number, hash, role))
        }
        var keys: [MemberRole: String] = [:]
        if let keysPosition = fields["keys"] {
            guard text.kind(at: keysPosition) == .object else { return nil }
            _ = try? text.forEachMember(ofObjectAt: keysPosition) { name, value in
                guard let role = MemberRole(rawValue: text.makeString(name)), let hash = string(text, value),
                    hash.utf8.count == 64
                else {
                    wellFormed = false
                    return
                }
                keys[role] = hash
            }
        }
        return wellFormed ? (next, members, keys) : nil
    }

    private static func string(_ text: JSONText, _ position: Int) -> String? {
        text.kind(at: position) == .string ? text.makeString(text.string(at: position)) : nil
    }

    private static func integer(_ text: JSONText, _ position: Int) -> Int? {
        Trace.integer(text, position).flatMap { Int(exactly: $0) }
    }
}
