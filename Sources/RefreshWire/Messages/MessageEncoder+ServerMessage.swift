import RefreshKit

extension MessageEncoder {
    /// Appends `message` to `buffer`, whatever it is: the one entry point for a message queued for a
    /// connection. It writes the same bytes as the specialised entry point of each kind, which it calls.
    ///
    /// The room's frames do not come this way: a frame (or a delta, once per base) is encoded once for all the
    /// members of a session, straight into a ``MessageBuffer`` with the WebSocket's headroom, and written from
    /// there (`encode(_: SharedFrame, into: inout MessageBuffer)` and its `encodeDelta` twin).
    /// Everything else (and a frame written alone, as in a test or a tool) may use this.
    public func encode(_ message: ServerMessage, into buffer: inout [UInt8]) {
        switch message {
        case .welcome(let welcome): encode(welcome, into: &buffer)
        case .frame(let frame): encode(frame, into: &buffer)
        case .delta(let frame, let base): encodeDelta(frame, from: base, into: &buffer)
        case .event(let event): encode(event, into: &buffer)
        case .error(let error): encode(error, into: &buffer)
        case .pong(let t, let serverTime): encodePong(t: t, serverTime: serverTime, into: &buffer)
        case .room(let members, let member): encodeRoom(members: members, member: member, into: &buffer)
        case .trace(let recorder):
            buffer.reserveCapacity(buffer.count + recorder.jsonByteEstimate + 32)
            recorder.encodeMessage(into: &buffer)
        case .config(let preset, let configuration):
            encodeConfig(preset: preset, configuration: configuration, into: &buffer)
        case .rows(let change, let items): encodeRows(change, of: items, into: &buffer)
        case .rowsUpdate(let update): encodeRows(update, into: &buffer)
        case .feedRequest(let answered): encodeFeedRequest(answered, into: &buffer)
        case .newItems(let count, let more): encodeNewItems(count: count, more: more, into: &buffer)
        case .heights(let rows): encodeHeights(rows, into: &buffer)
        }
    }
}
