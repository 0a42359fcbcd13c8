import Logging
import RefreshAccess
import RefreshKit
import RefreshWire

/// Every session of the server by id, and what a `hello` means (PROTOCOL.md, "Sessions" and "Roles"):
/// - no `session`: a new session, and the page is its first member, its owner;
/// - `session` and `key` (a share link): a new member of that session, with a token of its own and the role of
///   the key (`drive` or `watch`); a key the session does not have is refused with `forbidden`;
/// - `session` alone: refused with `forbidden` (knowing an id is not enough to join);
/// - `session` and `token`: that member again (a page coming back after a drop), with its role;
/// - a `session` that does not exist (expired, or the server restarted): a new session, with the notice
///   `session_expired`; a `token` the session never issued: refused with `bad_token`.
///
/// Every admission the rules allow is put to the embedder's hook last (``HostConfiguration/authorize``); a denial
/// is `forbidden` too. A refusal changes nothing.
///
/// Owned by the thread that drives the host.
final class SessionRegistry {
    enum Admission {
        case created(Session, Session.Member, notice: String?)
        case joined(Session, Session.Member)
        case resumed(Session, Session.Member)
        case refused(WireError)
    }

    static let sessionExpired = "session_expired"

    private(set) var sessions: [String: Session] = [:]
    /// The client address whose `hello` made each session, by id, counted against
    /// ``HostConfiguration/maxSessionsPerAddress`` (none for loopback and for sessions taken over from a store): kept
    /// here rather than in the session, whose object fills its allocator class (AllocatorClassTests).
    private var creators: [String: String] = [:]
    /// Sessions held per client address that made them.
    private var created: [String: Int] = [:]
    /// Trace bytes held by all sessions together (bounded by ``ServerConfiguration/maxTraceBytesTotal``).
    private(set) var traceBytes = 0
    private let configuration: SessionHost.Configuration
    private let logger: Logger
    /// The buffers every session writes its frame messages in (with the transport's headroom before each).
    let frameMessages: FrameMessages

    init(configuration: SessionHost.Configuration, logger: Logger, headroom: Int) {
        self.configuration = configuration
        self.logger = logger
        frameMessages = FrameMessages(headroom: headroom)
    }

    var isEmpty: Bool { sessions.isEmpty }

    /// Decides what `hello` asks for and does it (a new session, a new member, a resumed member). `credentials`
    /// and `peer`: what the transport knew of the client, for the embedder's hook.
    func admit(_ hello: Hello, credentials: String? = nil, peer: String = "", at now: Timestamp) -> Admission {
        var notice: String?
        func refusal(_ kind: HelloAuthorization.Kind, _ role: MemberRole, _ session: String?) -> WireError? {
            configuration.authorizer?.refusal(
                of: HelloAuthorization(
                    session: session, role: role, kind: kind, credentials: credentials, peer: peer))
        }
        if let id = hello.session {
            if let session = sessions[id] {
                if let token = hello.token {
                    guard let member = session.member(token: token) else {
                        return .refused(
                            WireError(
                                code: .badToken, message: "this token was not issued for this session", ref: "hello"))
                    }
                    if let denied = refusal(.resume, member.role, id) { return .refused(denied) }
                    return .resumed(session, member)
                }
                guard let key = hello.key else { return .refused(Self.keyNeeded) }
                guard let role = session.keys.role(for: key) else { return .refused(Self.wrongKey) }
                if let denied = refusal(.join, role, id) { return .refused(denied) }
                guard let member = session.addMember(limit: configuration.maxMembersPerSession, role: role) else {
                    return .refused(
                        WireError(
                            code: .sessionFull,
                            message: "the session already has \(configuration.maxMembersPerSession) devices connected",
                            ref: "hello"))
                }
                return .joined(session, member)
            }
            notice = Self.sessionExpired
        }
        if let denied = refusal(.new, .owner, nil) { return .refused(denied) }
        let creator = counts(peer) ? peer : ""
        if !creator.isEmpty, created[creator, default: 0] >= configuration.maxSessionsPerAddress,
            !evictIdleSession(of: creator)
        {
            return .refused(
                WireError(
                    code: .tooManySessions,
                    message:
                        "this address holds \(configuration.maxSessionsPerAddress) sessions, all in use: come back to one (its link or token), or close one",
                    ref: "hello"))
        }
        if sessions.count >= configuration.maxSessions && !evictIdleSession() {
            return .refused(
                WireError(code: .tooManySessions, message: "the server is at its session limit", ref: "hello"))
        }
        let header = TraceHeader(
            preset: hello.preset ?? configuration.defaultPreset, viewport: hello.viewport,
            devicePixelRatio: hello.dpr, seed: hello.seed ?? configuration.seed, start: now,
            feedSource: configuration.feedSource)
        let traced: TracedListModel
        do {
            traced = try TracedListModel(
                header: header, limits: configuration.traceLimits, presets: configuration.presets)
        } catch {
            return .refused(WireError(error, ref: "hello"))
        }
        var id = configuration.idPrefix + RandomIdentifier.make128()
        while sessions[id] != nil { id = configuration.idPrefix + RandomIdentifier.make128() }
        let session = Session(id: id, traced: traced, messages: frameMessages)
        sessions[id] = session
        if !creator.isEmpty {
            creators[id] = creator
            created[creator, default: 0] += 1
        }
        guard let member = session.addMember(limit: configuration.maxMembersPerSession, role: .owner) else {
            preconditionFailure("a new session admits its first member")
        }
        return .created(session, member, notice: notice)
    }

    /// The reply to `hello {session}` without a key or token for a live session.
    static let keyNeeded = WireError(
        code: .forbidden,
        message:
            "joining a session needs one of its share links' keys (hello.key, the link's k=): its id alone is not enough; ask its owner for a link",
        ref: "hello")

    /// The reply to `hello {session, key}` with a key the session does not have.
    static let wrongKey = WireError(
        code: .forbidden, message: "this key does not open this session: ask its owner for a new link", ref: "hello")

    /// Holds `session`, taken over from a store (``SessionHost/takeOver(_:at:)``).
    func adopt(_ session: Session) {
        sessions[session.id] = session
        account(session)
    }

    func remove(_ session: Session) {
        if sessions.removeValue(forKey: session.id) != nil, let creator = creators.removeValue(forKey: session.id),
            let count = created[creator]
        {
            created[creator] = count > 1 ? count - 1 : nil
        }
        traceBytes -= session.accountedTraceBytes
        session.accountedTraceBytes = 0
    }

    /// Counts what `session`'s trace grew by against the budget for all traces; a session that finds the budget
    /// spent stops recording (its trace says `truncated`) and the session goes on.
    ///
    /// Called twice per input (after its apply and after its frame): the sums, inlined in the host's calls, and
    /// the rare stop out of line (docs/PERFORMANCE.md, "Inlining on an input's path").
    @inline(__always)
    func account(_ session: Session) {
        let bytes = session.traced.recorder.byteCount
        guard bytes != session.accountedTraceBytes else { return }
        traceBytes += bytes - session.accountedTraceBytes
        session.accountedTraceBytes = bytes
        if traceBytes > configuration.maxTraceBytesTotal { budgetSpent(by: session) }
    }

    /// The budget for traces is spent: `session` stops recording, unless it already has.
    @inline(never)
    private func budgetSpent(by session: Session) {
        guard !session.traced.recorder.truncated else { return }
        session.stopRecording()
        logger.notice(
            "trace recording stopped: the server's budget for traces is spent",
            metadata: ["session": "\(SessionLogID(session.id))", "budget": "\(configuration.maxTraceBytesTotal)"])
    }

    func removeAll() {
        sessions.removeAll()
        creators.removeAll()
        created.removeAll()
    }

    /// Sessions held that `peer` made.
    func count(madeBy peer: String) -> Int {
        created[peer] ?? 0
    }

    /// Whether sessions made from `peer` count against its share (loopback is exempt unless the operator asks).
    private func counts(_ peer: String) -> Bool {
        !peer.isEmpty && (configuration.limitLoopback || IPAddress(peer)?.isLoopback != true)
    }

    /// Frees the idle session closest to its expiry, to make room for a new one. - Returns: whether one was freed.
    /// `creator`: only a session that address made (its share is spent), never another address's.
    private func evictIdleSession(of creator: String? = nil) -> Bool {
        let idle = sessions.values.filter { $0.expiresAt != nil && (creator == nil || creators[$0.id] == creator) }
        guard let oldest = idle.min(by: { $0.expiresAt! < $1.expiresAt! }) else { return false }
        remove(oldest)
        logger.notice(
            "session freed early: the server is at its session limit",
            metadata: ["session": "\(SessionLogID(oldest.id))", "limit": "\(configuration.maxSessions)"])
        return true
    }
}
