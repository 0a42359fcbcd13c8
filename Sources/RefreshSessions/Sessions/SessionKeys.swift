import RefreshWire

/// A session's share keys: one per role a share link gives (``MemberRole/shared``), each 128 random bits from the
/// generator that makes ids and tokens (``RandomIdentifier``), so that knowing a session's id no longer lets a
/// device in (PROTOCOL.md, "Roles").
///
/// A key is checked through its SHA-256 (``TokenHash``), against both roles' hashes every time, each compared in
/// constant time: the check takes the same time whichever key, if any, matched. A store keeps only the hashes
/// (``hashes``), as it keeps tokens: a session taken over by another process knows its keys' hashes, not the keys,
/// and its owner's `welcome` then has no `links` (the page keeps the ones it had).
///
/// A class (immutable): a session holds one reference, not four strings (the session object keeps to its
/// allocator class: `AllocatorClassTests`).
final class SessionKeys {
    /// The keys themselves by role, when this process made them; empty when only their hashes are known.
    let keys: [MemberRole: String]
    /// SHA-256 of each key, in lowercase hex, by role.
    let hashes: [MemberRole: String]

    private init(keys: [MemberRole: String], hashes: [MemberRole: String]) {
        self.keys = keys
        self.hashes = hashes
    }

    /// New random keys, one per shared role.
    static func make() -> SessionKeys {
        var keys: [MemberRole: String] = [:]
        for role in MemberRole.shared { keys[role] = RandomIdentifier.make128() }
        return SessionKeys(keys: keys, hashes: keys.mapValues(TokenHash.hex))
    }

    /// The keys a store kept: their hashes, one per shared role. `nil` unless every shared role has one (a session
    /// stored before keys existed gets new keys instead: ``make()``).
    static func stored(_ hashes: [MemberRole: String]) -> SessionKeys? {
        guard MemberRole.shared.allSatisfy({ hashes[$0]?.utf8.count == 64 }) else { return nil }
        return SessionKeys(keys: [:], hashes: hashes)
    }

    /// The role `key` gives, if it is one of the session's keys.
    func role(for key: String) -> MemberRole? {
        let hash = TokenHash.hex(key)
        var found: MemberRole?
        for role in MemberRole.shared where RandomIdentifier.equal(hashes[role] ?? "", hash) { found = role }
        return found
    }

    /// The share links of session `id`, when the keys are known here.
    func links(for id: String) -> ShareLinks? {
        guard let drive = keys[.drive], let watch = keys[.watch] else { return nil }
        return ShareLinks(session: id, drive: drive, watch: watch)
    }
}
