import RefreshWire

/// A session's share keys: one per role a share link gives (``MemberRole/shared``: drive and watch), each 128 random
/// bits from the generator that makes ids and tokens (``RandomIdentifier``), so that knowing a session's id no longer
/// lets a device in (PROTOCOL.md, "Roles").
///
/// A key is checked through its SHA-256 (``TokenHash``), against both roles' hashes every time, each compared in
/// constant time: the check takes the same time whichever key, if any, matched. A store keeps only the hashes
/// (``hashes``), as it keeps tokens: a session taken over by another process knows its keys' hashes, not the keys,
/// and its owner's `welcome` then has no `links` (the page keeps the ones it had).
///
/// Every session holds one, for as long as it lives, so the keys and hashes are kept inline as bytes rather than as
/// strings in dictionaries, each a heap block of its own (docs/PERFORMANCE.md, "Memory per connected session"); their
/// text is made when a link or a store asks for it. A class (immutable): a
/// session holds one reference (the session object keeps to its allocator class: `AllocatorClassTests`).
final class SessionKeys {
    /// The keys themselves, drive's and watch's, when this process made them; `nil` when only their hashes are known.
    private let made: (drive: RandomIdentifier.Bits, watch: RandomIdentifier.Bits)?
    /// SHA-256 of each key's text (its 32 hex digits).
    private let digests: (drive: TokenHash.Digest, watch: TokenHash.Digest)

    private init(
        made: (drive: RandomIdentifier.Bits, watch: RandomIdentifier.Bits)?,
        digests: (drive: TokenHash.Digest, watch: TokenHash.Digest)
    ) {
        self.made = made
        self.digests = digests
    }

    /// New random keys, one per shared role.
    static func make() -> SessionKeys {
        let drive = RandomIdentifier.Bits()
        let watch = RandomIdentifier.Bits()
        return SessionKeys(
            made: (drive, watch), digests: (TokenHash.Digest(of: drive.hex), TokenHash.Digest(of: watch.hex)))
    }

    /// The keys a store kept: their hashes, one per shared role. `nil` unless every shared role has one (a session
    /// stored before keys existed gets new keys instead: ``make()``).
    static func stored(_ hashes: [MemberRole: String]) -> SessionKeys? {
        guard let drive = hashes[.drive].flatMap(TokenHash.Digest.init(hex:)),
            let watch = hashes[.watch].flatMap(TokenHash.Digest.init(hex:))
        else { return nil }
        return SessionKeys(made: nil, digests: (drive, watch))
    }

    /// The keys themselves by role, in hex, when this process made them; empty when only their hashes are known.
    var keys: [MemberRole: String] {
        guard let made else { return [:] }
        return [.drive: made.drive.hex, .watch: made.watch.hex]
    }

    /// SHA-256 of each key, in lowercase hex, by role: what a store keeps.
    var hashes: [MemberRole: String] {
        [.drive: digests.drive.hex, .watch: digests.watch.hex]
    }

    /// The role `key` gives, if it is one of the session's keys.
    func role(for key: String) -> MemberRole? {
        let digest = TokenHash.Digest(of: key)
        let drive = digest.matches(digests.drive)
        let watch = digest.matches(digests.watch)
        return drive ? .drive : watch ? .watch : nil
    }

    /// The share links of session `id`, when the keys are known here.
    func links(for id: String) -> ShareLinks? {
        guard let made else { return nil }
        return ShareLinks(session: id, drive: made.drive.hex, watch: made.watch.hex)
    }
}
