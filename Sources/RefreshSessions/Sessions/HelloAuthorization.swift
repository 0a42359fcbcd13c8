import RefreshWire

/// What an embedder's hook (``HostConfiguration/authorize``) is asked about a `hello` the session rules would admit
/// (docs/EMBEDDING.md, "Who may join"): which session, as what, how, and what the transport knew of the client.
public struct HelloAuthorization: Sendable, Hashable {
    /// How the `hello` would be admitted.
    public enum Kind: String, Sendable, Hashable {
        /// A new session, whose owner the client would be.
        case new
        /// A new member of a live session, with a share link's key.
        case join
        /// A member coming back with its token.
        case resume
    }

    /// The session's id; `nil` for a new session (its id is made once it is allowed).
    public var session: String?
    /// The role the client would have: `owner` for a new session, the key's for a join, the member's for a resume.
    public var role: MemberRole
    public var kind: Kind
    /// What the transport gave when the connection opened (``SessionHost/opened(id:peer:credentials:at:)``): a
    /// cookie's user, a bearer token, …; `nil` when it gave none.
    public var credentials: String?
    /// The client's address, as the transport gave it.
    public var peer: String

    public init(session: String?, role: MemberRole, kind: Kind, credentials: String?, peer: String) {
        self.session = session
        self.role = role
        self.kind = kind
        self.credentials = credentials
        self.peer = peer
    }
}

/// The hook's answer: admit the `hello`, or refuse it with `forbidden` and `message` (a sentence for people, sent
/// to the page as the error's `message`).
public enum HelloVerdict: Sendable, Hashable {
    case allow
    case deny(String)
}

/// The hook as ``HostConfiguration`` keeps it: equal to itself only, so the configuration stays `Hashable`.
final class HelloAuthorizer: Sendable, Hashable {
    let decide: @Sendable (HelloAuthorization) -> HelloVerdict

    init(_ decide: @escaping @Sendable (HelloAuthorization) -> HelloVerdict) { self.decide = decide }

    static func == (a: HelloAuthorizer, b: HelloAuthorizer) -> Bool { a === b }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The `forbidden` error for `request`, or nil when the hook allows it.
    func refusal(of request: HelloAuthorization) -> WireError? {
        guard case .deny(let message) = decide(request) else { return nil }
        return WireError(code: .forbidden, message: message, ref: "hello")
    }
}
