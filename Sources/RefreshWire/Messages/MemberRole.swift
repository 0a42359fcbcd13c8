import RefreshKit

/// What a member of a session may do (PROTOCOL.md, "Roles"): one value, checked by the host in one place before an
/// input reaches the session, and named in every `welcome` as `role`.
///
/// The rights, one row each (``may(_:)``):
///
/// | role | touch, wheel, command, resize, measure | configure | frames, events, `ping`, `trace` |
/// |---|---|---|---|
/// | `owner` (started the session) | yes | yes | yes |
/// | `drive` (joined with the drive link's key) | yes | no | yes |
/// | `watch` (joined with the watch link's key) | no | no | yes (its own `trace` is partial) |
///
/// A refusal is `error {code:"forbidden"}` (``refusal(_:seq:)``); the session goes on and the member keeps getting
/// frames. Configuring is the owner's: it changes the session for everyone, presets and physics alike.
public enum MemberRole: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case owner
    case drive
    case watch

    /// The roles a share link can give (one key each): all but the owner.
    public static let shared: [MemberRole] = [.drive, .watch]

    /// Whether a member of this role may send `input`.
    @inline(__always)
    public func may(_ input: Input) -> Bool {
        switch input {
        case .configure: self == .owner
        case .touch, .wheel, .command, .resize, .measure: self != .watch
        case .feedAnswer: false  // only the server's feed source answers (the decoder refuses it from a page)
        }
    }

    /// ``may(_:)`` for a touch, which the host reads without making an `Input`.
    @inline(__always)
    public var mayTouch: Bool { self != .watch }

    /// The `forbidden` error answering an input of type `ref` (its `seq`, if any) this role may not send.
    public func refusal(_ ref: String, seq: UInt64?) -> WireError {
        let who = ref == "configure" ? "only the session's owner may" : "only the owner and drive members may"
        return WireError(
            code: .forbidden,
            message:
                "this device joined as a \(rawValue) member: \(who) send \(ref) (PROTOCOL.md, \"Roles\"); the session goes on",
            ref: ref, seq: seq)
    }

    public var description: String { rawValue }
}
