/// A session id as the log writes it: its node prefix (`n2.`, which says where it lives) and the first 12 hex digits
/// of its SHA-256 after `#`, never the id itself, since knowing an id (with a key) is what lets a device in, and logs
/// travel further than the server (PROTOCOL.md, "Roles"). An operator finds a session's lines from its id with
/// `printf %s ID | sha256sum | cut -c1-12`.
struct SessionLogID: CustomStringConvertible {
    let id: String

    init(_ id: String) { self.id = id }

    var description: String {
        let prefix = id.lastIndex(of: ".").map { String(id[...$0]) } ?? ""
        return prefix + "#" + TokenHash.hex(id).prefix(12)
    }
}
