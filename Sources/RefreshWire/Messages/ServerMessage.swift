import RefreshKit

/// One message the server sends to a page (PROTOCOL.md, "Server → page"), beside ``ClientMessage``, the ones it
/// receives. `MessageEncoder.encode(_: ServerMessage, into:)` writes any of them.
public enum ServerMessage: Sendable {
    /// `welcome`: the reply to an admitted `hello`.
    case welcome(Welcome)
    /// `frame`: the session's whole state at one time, with its `ack` map. (`indirect`, as `delta`: a frame is
    /// far larger than any other message's payload, and every message would otherwise take its size; a host
    /// writes its frames without this type.)
    indirect case frame(SharedFrame)
    /// `delta`: what changed in `frame` since `base`, the frame the page holds (PROTOCOL.md, "delta").
    indirect case delta(SharedFrame, base: SharedFrame)
    /// `event`: one state transition or notification of an edge, gesture or feed.
    case event(Event)
    /// `error`: a message the server refused; the session carries on.
    case error(WireError)
    /// `pong`: the answer to `ping`, its `t` echoed exactly and the server's clock.
    case pong(t: Double, serverTime: Timestamp)
    /// `room`: how many devices share the session now, and which member the receiver is.
    case room(members: Int, member: Int)
    /// `trace`: the session's input trace as recorded so far (the value is a snapshot: recording goes on).
    case trace(TraceRecorder)
    /// `config`: the session's whole configuration after an accepted `configure`, to every member.
    case config(preset: String, configuration: ListConfiguration)
    /// `rows`: the items an applied feed answer changed (`change`), out of the session's loaded `items`.
    case rows(RowsChange, items: [FeedItem])
    /// `rows`: one change of the list's rows, as the engine recorded it (`RowsUpdate`): a merge, or
    /// the window of pages dropping or loading a page back.
    case rowsUpdate(RowsUpdate)
    /// `feed_request`: one request to the feed source and how it ended.
    case feedRequest(AnsweredRequest)
    /// `new_items`: how many items newer than the session's top item the source has.
    case newItems(count: Int, more: Bool)
    /// `heights`: row heights the engine accepted (after a `measure`, or all known ones after a `welcome`).
    case heights([RowMeasurement])

    /// The message's `type`.
    public var kind: Kind {
        switch self {
        case .welcome: .welcome
        case .frame: .frame
        case .delta: .delta
        case .event: .event
        case .error: .error
        case .pong: .pong
        case .room: .room
        case .trace: .trace
        case .config: .config
        case .rows, .rowsUpdate: .rows
        case .feedRequest: .feedRequest
        case .newItems: .newItems
        case .heights: .heights
        }
    }

    /// The `type` of a server message, as the wire spells it: the rows of PROTOCOL.md's "Server → page" table
    /// (`ProtocolDocumentTests` checks that they are the same).
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case welcome, frame, delta, event, error, pong, room, trace, config, rows
        case feedRequest = "feed_request"
        case newItems = "new_items"
        case heights
    }
}
