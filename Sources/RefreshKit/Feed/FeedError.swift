/// Why a source gave no page (Paging 3's `LoadResult.Error`), with a message a person understands
/// (``description``). Every case is an answer, never a crash: the list shows it with a Retry.
public enum FeedError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The source could not be reached or read; the reason says why (a refused connection, an HTTP status).
    case unavailable(String)
    /// No answer within the time limit.
    case timedOut(limitMs: Int)
    /// The answer is not what the format says it must be; the reason points at the first fault.
    case malformed(String)
    /// The answer is larger than allowed; `what` names the part (`body`, `page`, `text`) and `limit` its bound.
    case oversized(what: String, limit: Int)
    /// A load-more page held nothing but items already loaded (the id is its first).
    case repeatedIds(String)
    /// A cursor this source did not make.
    case badCursor(String)
    /// The SQLite file cannot be written (posting to it).
    case readOnly(path: String)
    /// Another connection holds the SQLite file's write lock for longer than the busy timeout.
    case locked(path: String)
    /// The file or its folder does not exist.
    case missing(path: String)
    /// The address names no known source, or names it wrongly.
    case badAddress(String)
    /// The source does not take posts, or the post is not acceptable (empty text).
    case rejected(String)
    /// A page around an item (``FeedPosition/around(_:)``) asked for an id the source does not have.
    case unknownItem(String)
    /// The source cannot answer such a request (a page around an item, from a feed read as a document); the
    /// reason says what.
    case unsupported(String)

    /// What went wrong, for a person.
    public var description: String {
        switch self {
        case .unavailable(let reason): "The feed is unavailable: \(reason)."
        case .timedOut(let limit): "The feed did not answer within \(limit) ms."
        case .malformed(let reason): "The feed's answer is malformed: \(reason)."
        case .oversized(let what, let limit): "The feed's \(what) is larger than the limit of \(limit)."
        case .repeatedIds(let id): "The feed sent a page of items already loaded (the first: \"\(id)\")."
        case .badCursor(let cursor): "The cursor \"\(cursor)\" was not made by this feed."
        case .readOnly(let path): "The feed file \(path) is read-only; it cannot take new items."
        case .locked(let path): "The feed file \(path) is locked by another program; try again."
        case .missing(let path): "\(path.prefix(1).uppercased() + path.dropFirst()) does not exist."
        case .badAddress(let reason): "Bad feed address: \(reason)."
        case .rejected(let reason): "The post was rejected: \(reason)."
        case .unknownItem(let id): "The feed has no item \"\(id.prefix(64))\"."
        case .unsupported(let reason): "The feed cannot \(reason)."
        }
    }

    /// A short, stable name of the case, the snake_case of its name: the `code` of a `feed_answer`'s or a
    /// `feed_request`'s `error` on the wire (docs/PROTOCOL.md, "Feed"), and what logs and metrics write.
    public var code: String {
        switch self {
        case .unavailable: "unavailable"
        case .timedOut: "timed_out"
        case .malformed: "malformed"
        case .oversized: "oversized"
        case .repeatedIds: "repeated_ids"
        case .badCursor: "bad_cursor"
        case .readOnly: "read_only"
        case .locked: "locked"
        case .missing: "missing"
        case .badAddress: "bad_address"
        case .rejected: "rejected"
        case .unknownItem: "unknown_item"
        case .unsupported: "unsupported"
        }
    }
}
