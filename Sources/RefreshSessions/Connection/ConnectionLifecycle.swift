import RefreshWire

/// Where a connection is in its life, from the server's side. One value instead of flags that had to be read
/// together: each state says what may still happen (reading, writing, closing) and the transitions are the
/// only way between them.
///
/// ```
/// open ──requestClose──▶ closeRequested ──issueClose──▶ closeIssued ──closed──▶ closed
///   │                                                       ▲
///   └──drain──▶ draining ──(outbox empty) issueClose────────┘
/// any but closed ──kill──▶ closeIssued
/// ```
public enum ConnectionLifecycle: Hashable, Sendable {
    /// Reading and writing.
    case open
    /// The server is shutting down: what is queued is still written, nothing new is taken, and then the
    /// connection is closed with 1001 (going away).
    case draining
    /// A close code (and its reason, `CloseCode.reason`) is decided: the next write issues the close. Everything
    /// that arrives meanwhile is read and dropped.
    case closeRequested(CloseCode)
    /// The close was issued (or the socket is being killed): the transport owns the close from here.
    case closeIssued
    /// The transport reported the connection gone; nothing may be written.
    case closed

    /// Whether messages from the peer are still taken.
    public var acceptsInput: Bool { self == .open }

    /// Whether anything may still be written (a queued message, a frame, or the close itself).
    public var mayWrite: Bool {
        switch self {
        case .open, .draining, .closeRequested: true
        case .closeIssued, .closed: false
        }
    }

    /// Whether the connection still takes events and frames of its session.
    public var takesSessionOutput: Bool { self == .open }

    /// `open` or `draining` → `closeRequested`. - Returns: whether it changed (a connection already closing
    /// keeps the first reason).
    @discardableResult
    public mutating func requestClose(_ code: CloseCode) -> Bool {
        switch self {
        case .open, .draining:
            self = .closeRequested(code)
            return true
        case .closeRequested, .closeIssued, .closed:
            return false
        }
    }

    /// `open` → `draining` (a shutdown). - Returns: whether it changed.
    @discardableResult
    public mutating func drain() -> Bool {
        guard self == .open else { return false }
        self = .draining
        return true
    }

    /// `closeRequested` or `draining` → `closeIssued`: the close frame goes out now. - Returns: the code to
    /// send, or nil when there is no close to issue.
    public mutating func issueClose() -> CloseCode? {
        switch self {
        case .closeRequested(let code):
            self = .closeIssued
            return code
        case .draining:
            self = .closeIssued
            return .goingAway
        case .open, .closeIssued, .closed:
            return nil
        }
    }

    /// Any state but `closed` → `closeIssued`, without a close handshake (the peer is not listening, or a
    /// write failed). - Returns: whether it changed.
    @discardableResult
    public mutating func kill() -> Bool {
        switch self {
        case .open, .draining, .closeRequested:
            self = .closeIssued
            return true
        case .closeIssued, .closed:
            return false
        }
    }

    /// The transport reported the connection gone.
    public mutating func close() { self = .closed }
}
