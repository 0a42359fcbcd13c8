/// A session's share links, one per role a link gives (PROTOCOL.md, "Roles"): paths such as `/?s=ID&k=KEY`, which
/// the page prefixes with `welcome.share`. Only the owner's `welcome` carries them.
public struct ShareLinks: Hashable, Sendable {
    /// Joins as a `drive` member: touch, wheel, commands, resize.
    public var drive: String
    /// Joins as a `watch` member: frames and events only.
    public var watch: String

    public init(drive: String, watch: String) {
        self.drive = drive
        self.watch = watch
    }

    /// The links of session `session` whose keys are `drive` and `watch`.
    public init(session: String, drive: String, watch: String) {
        self.init(drive: "/?s=\(session)&k=\(drive)", watch: "/?s=\(session)&k=\(watch)")
    }
}

extension Welcome {
    /// `,"share":…,"ca":…` (where other devices reach the server), `,"role":…,"links":{…}` and `,"takeover":{…}`: the
    /// welcome's last members (MessageEncoder's `writeWelcome`).
    func writeAccessAndTakeOver(to w: inout JSONWriter) {
        w.member(#","share":"#, string: share)
        w.member(#","ca":"#, string: authority)
        w.literal(#","role":"#)
        w.plainString(role.rawValue)
        if let links {
            w.literal(#","links":{"drive":"#)
            w.string(links.drive)
            w.literal(#","watch":"#)
            w.string(links.watch)
            w.byte(.closeBrace)
        }
        if let takeOver {
            w.literal(#","takeover":{"from":"#)
            w.string(takeOver.from)
            w.literal(#","catchUpMs":"#)
            w.fixed(Double(takeOver.catchUpMicroseconds) / 1000, decimals: 3)
            w.literal(#","ops":"#)
            w.integer(Int64(takeOver.operations))
            w.byte(.closeBrace)
        }
    }
}
