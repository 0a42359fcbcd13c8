import Logging
import RefreshKit
import RefreshWire

/// Every room of the server by id, and what a `hello` means (PROTOCOL.md, "Sessions"):
/// - no `session`: a new session, and the page is its first member;
/// - `session` alone (a shared link): a new member of that session, with a token of its own;
/// - `session` and `token`: that member again (a page coming back after a drop);
/// - a `session` that does not exist (expired, or the server restarted): a new session, with the notice
///   `session_expired`; a `token` the session never issued: refused with `bad_token`.
///
/// Owned by the thread that drives the host.
final class SessionRegistry {
    enum Admission {
        case created(Room, Room.Member, notice: String?)
        case joined(Room, Room.Member)
        case resumed(Room, Room.Member)
        case refused(WireError)
    }

    static let sessionExpired = "session_expired"

    private(set) var rooms: [String: Room] = [:]
    /// Trace bytes held by all rooms together (bounded by ``ServerConfiguration/maxTraceBytesTotal``).
    private(set) var traceBytes = 0
    private let configuration: SessionHost.Configuration
    private let logger: Logger
    /// The transport's headroom before each frame message (``Room/init(id:traced:headroom:)``).
    private let headroom: Int

    init(configuration: SessionHost.Configuration, logger: Logger, headroom: Int) {
        self.configuration = configuration
        self.logger = logger
        self.headroom = headroom
    }

    var isEmpty: Bool { rooms.isEmpty }

    /// Decides what `hello` asks for and does it (a new room, a new member, a resumed member).
    func admit(_ hello: Hello, at now: Timestamp) -> Admission {
        var notice: String?
        if let id = hello.session {
            if let room = rooms[id] {
                if let token = hello.token {
                    guard let member = room.member(token: token) else {
                        return .refused(
                            WireError(
                                code: .badToken, message: "this token was not issued for this session", ref: "hello"))
                    }
                    return .resumed(room, member)
                }
                guard let member = room.addMember(limit: configuration.maxMembersPerSession) else {
                    return .refused(
                        WireError(
                            code: .sessionFull,
                            message: "the session already has \(configuration.maxMembersPerSession) devices connected",
                            ref: "hello"))
                }
                return .joined(room, member)
            }
            notice = Self.sessionExpired
        }
        if rooms.count >= configuration.maxSessions && !evictIdleRoom() {
            return .refused(
                WireError(code: .tooManySessions, message: "the server is at its session limit", ref: "hello"))
        }
        let header = TraceHeader(
            preset: hello.preset ?? configuration.defaultPreset, viewport: hello.viewport,
            devicePixelRatio: hello.dpr, seed: hello.seed ?? configuration.seed, start: now)
        let traced: TracedSession
        do {
            traced = try TracedSession(header: header, limits: configuration.traceLimits)
        } catch {
            return .refused(WireError(error, ref: "hello"))
        }
        var id = configuration.idPrefix + RandomIdentifier.make128()
        while rooms[id] != nil { id = configuration.idPrefix + RandomIdentifier.make128() }
        let room = Room(id: id, traced: traced, headroom: headroom)
        rooms[id] = room
        guard let member = room.addMember(limit: configuration.maxMembersPerSession) else {
            preconditionFailure("a new room admits its first member")
        }
        return .created(room, member, notice: notice)
    }

    /// Holds `room`, taken over from a store (``SessionHost/takeOver(_:at:)``).
    func adopt(_ room: Room) {
        rooms[room.id] = room
        account(room)
    }

    func remove(_ room: Room) {
        rooms[room.id] = nil
        traceBytes -= room.accountedTraceBytes
        room.accountedTraceBytes = 0
    }

    /// Counts what `room`'s trace grew by against the budget for all traces; a room that finds the budget
    /// spent stops recording (its trace says `truncated`) and the session goes on.
    func account(_ room: Room) {
        let bytes = room.traced.recorder.byteCount
        guard bytes != room.accountedTraceBytes else { return }
        traceBytes += bytes - room.accountedTraceBytes
        room.accountedTraceBytes = bytes
        if traceBytes > configuration.maxTraceBytesTotal && !room.traced.recorder.truncated {
            room.stopRecording()
            logger.notice(
                "trace recording stopped: the server's budget for traces is spent",
                metadata: ["session": "\(room.id)", "budget": "\(configuration.maxTraceBytesTotal)"])
        }
    }

    func removeAll() {
        rooms.removeAll()
    }

    /// Frees the idle room closest to its expiry, to make room for a new one. - Returns: whether one was freed.
    private func evictIdleRoom() -> Bool {
        let idle = rooms.values.filter { $0.expiresAt != nil }
        guard let oldest = idle.min(by: { $0.expiresAt! < $1.expiresAt! }) else { return false }
        remove(oldest)
        logger.notice(
            "session freed early: the server is at its session limit",
            metadata: ["session": "\(oldest.id)", "limit": "\(configuration.maxSessions)"])
        return true
    }
}
