// Over 400 lines on purpose: one writer for every server message, sharing the frame writer's private helpers
// (the hot path); split by message, those helpers would have to become internal API.
import RefreshKit

/// Writes the server's messages (PROTOCOL.md, "Server → page") as compact UTF-8 JSON, appended to a
/// buffer the caller reuses: once the buffer has grown, encoding a frame or an event allocates nothing.
/// The output is deterministic: the same value gives the same bytes (keys in PROTOCOL.md's order, edges of
/// a configuration in the order top, bottom, left, right).
///
/// Numbers are finite JSON numbers, integers without `.0`, never an exponent below 9·10¹⁵; a NaN or an
/// infinity (which the engine never produces) is written as `0`. Each kind of number is rounded to its
/// `WirePrecision`: times exact to the engine's microsecond and lengths and velocities to 1/1000 (3 decimals);
/// fractions, durations, motion constants, curve points and an event's `value` to 10⁻⁶ (6 decimals). The pong's
/// echoed `t` and every number of a `config` are written exactly (they read back as the same `Double`).
public struct MessageEncoder: Sendable {
    public init() {}

    /// Appends a `frame` message to `buffer`, with `acknowledgements` as its `ack` (none when empty).
    public func encode(
        _ frame: Frame, acknowledgements: Acknowledgements = Acknowledgements(), into buffer: inout [UInt8]
    ) {
        appendJSON(to: &buffer, bound: Self.frameBound(frame, acknowledgements)) { w in
            writeFrame(frame, acknowledgements, to: &w)
        }
    }

    /// Appends a `frame` message to `buffer`, with `acknowledgements` as its `ack` (none when empty).
    public func encode(
        _ frame: Frame, acknowledgements: Acknowledgements = Acknowledgements(), into buffer: inout MessageBuffer
    ) {
        buffer.appendJSON(bound: Self.frameBound(frame, acknowledgements)) { w in
            writeFrame(frame, acknowledgements, to: &w)
        }
    }

    /// Appends the `frame` message of a shared frame (its frame and its `ack`) to `buffer`.
    public func encode(_ shared: SharedFrame, into buffer: inout [UInt8]) {
        encode(shared.frame, acknowledgements: shared.acknowledgements, into: &buffer)
    }

    /// Appends the `frame` message of a shared frame (its frame and its `ack`) to `buffer`.
    public func encode(_ shared: SharedFrame, into buffer: inout MessageBuffer) {
        encode(shared.frame, acknowledgements: shared.acknowledgements, into: &buffer)
    }

    private static func frameBound(_ frame: Frame, _ acknowledgements: Acknowledgements) -> Int {
        let segments = frame.horizontalMotion.count + frame.verticalMotion.count
        let pinned = frame.pinned.map { 64 + 6 * $0.section.utf8.count } ?? 0
        return 1024 + frame.edges.count * 1024 + segments * 512 + acknowledgements.count * ackEntryBound + pinned
    }

    /// The most bytes one `ack` entry takes: `"` member (≤ 19 digits) `":` seq (≤ 16 digits) `,`.
    static let ackEntryBound = 48

    /// Appends an `event` message to `buffer`.
    public func encode(_ event: Event, into buffer: inout [UInt8]) {
        appendJSON(to: &buffer, bound: Self.eventBound) { w in writeEvent(event, to: &w) }
    }

    /// Appends an `event` message to `buffer`.
    public func encode(_ event: Event, into buffer: inout MessageBuffer) {
        buffer.appendJSON(bound: Self.eventBound) { w in writeEvent(event, to: &w) }
    }

    private static let eventBound = 256

    /// Appends an `error` message to `buffer`.
    public func encode(_ error: WireError, into buffer: inout [UInt8]) {
        let bound =
            112 + error.code.rawValue.utf8.count
            + 6 * (error.message.utf8.count + (error.ref?.utf8.count ?? 0) + (error.node?.utf8.count ?? 0))
        appendJSON(to: &buffer, bound: bound) { w in writeError(error, to: &w) }
    }

    /// Appends a `welcome` message to `buffer`.
    public func encode(_ welcome: Welcome, into buffer: inout [UInt8]) {
        let strings =
            [
                welcome.session, welcome.token, welcome.preset, welcome.configuration.springName, welcome.notice ?? "",
                welcome.share ?? "", welcome.node ?? "", welcome.takeOver?.from ?? "", welcome.links?.drive ?? "",
                welcome.links?.watch ?? "",
            ]
            + welcome.presets
        let bound =
            2048 + welcome.configuration.edges.count * 1536 + strings.reduce(0) { $0 + 6 * $1.utf8.count + 3 }
            + ConfigurationJSON.schemaJSON.count + Self.catalogueBound(welcome.catalogue)
            + FeedJSON.bound(of: welcome.feed)
        appendJSON(to: &buffer, bound: bound) { w in writeWelcome(welcome, to: &w) }
    }

    /// Appends a `config` message to `buffer`: the session's whole configuration after an accepted
    /// `configure` (a preset switch included), in the shape of `welcome.config`, so every page's panel and
    /// indicators follow it.
    public func encodeConfig(preset: String, configuration: ListConfiguration, into buffer: inout [UInt8]) {
        let bound =
            512 + configuration.edges.count * 1536 + 6 * (preset.utf8.count + configuration.springName.utf8.count)
        appendJSON(to: &buffer, bound: bound) { w in
            w.literal(#"{"type":"config","preset":"#)
            w.string(preset)
            w.literal(#","config":"#)
            ConfigurationJSON.appendConfiguration(configuration, to: &w)
            w.byte(.closeBrace)
        }
    }

    /// Appends a `room` message to `buffer`: how many devices share the session now, and which member the
    /// receiving connection is.
    public func encodeRoom(members: Int, member: Int, into buffer: inout [UInt8]) {
        appendJSON(to: &buffer, bound: 96) { w in
            w.literal(#"{"type":"room","members":"#)
            w.integer(Int64(members))
            w.literal(#","member":"#)
            w.integer(Int64(member))
            w.byte(.closeBrace)
        }
    }

    /// Appends a `pong` message to `buffer`: `t` echoed exactly, `serverT` the server's clock.
    public func encodePong(t: Double, serverTime: Timestamp, into buffer: inout [UInt8]) {
        appendJSON(to: &buffer, bound: 128) { w in
            w.literal(#"{"type":"pong","t":"#)
            w.exact(t)
            w.literal(#","serverT":"#)
            w.milliseconds(serverTime)
            w.byte(.closeBrace)
        }
    }

    // MARK: Parts

    private func writeFrame(_ frame: Frame, _ acknowledgements: Acknowledgements, to w: inout JSONWriter) {
        w.literal(#"{"type":"frame","seq":"#)
        w.digits(frame.sequence)
        w.literal(#","t":"#)
        w.milliseconds(frame.time)
        w.literal(#","offset":"#)
        appendPoint(frame.offset, .length, to: &w)
        w.literal(#","velocity":"#)
        appendPoint(frame.velocity, .velocity, to: &w)
        w.literal(#","phase":"#)
        w.plainString(frame.phase.rawValue)
        if !frame.horizontalMotion.isEmpty || !frame.verticalMotion.isEmpty {
            w.literal(#","segment":{"#)
            if !frame.horizontalMotion.isEmpty {
                w.literal(#""x":"#)
                appendChain(frame.horizontalMotion, to: &w)
                if !frame.verticalMotion.isEmpty { w.byte(.comma) }
            }
            if !frame.verticalMotion.isEmpty {
                w.literal(#""y":"#)
                appendChain(frame.verticalMotion, to: &w)
            }
            w.byte(.closeBrace)
        }
        w.literal(#","contentSize":"#)
        appendSize(frame.contentSize, to: &w)
        w.literal(#","viewport":"#)
        appendSize(frame.viewport, to: &w)
        w.literal(#","insets":{"top":"#)
        w.fixed(frame.insets.top, .length)
        w.literal(#","left":"#)
        w.fixed(frame.insets.left, .length)
        w.literal(#","bottom":"#)
        w.fixed(frame.insets.bottom, .length)
        w.literal(#","right":"#)
        w.fixed(frame.insets.right, .length)
        w.literal(#"},"edges":["#)
        for (i, edge) in frame.edges.enumerated() {
            if i > 0 { w.byte(.comma) }
            appendEdge(edge, to: &w)
        }
        w.literal(#"],"feed":{"count":"#)
        w.integer(Int64(frame.feed.count))
        w.literal(#","hasMore":"#)
        w.bool(frame.feed.hasMore)
        w.literal(#","loading":"#)
        w.bool(frame.feed.loading)
        w.literal(#","rowHeight":"#)
        w.fixed(frame.feed.rowHeight, .length)
        w.byte(.closeBrace)
        if let pinned = frame.pinned { appendPinned(pinned, to: &w) }
        if !acknowledgements.isEmpty {
            w.literal(#","ack":{"#)
            for index in 0..<acknowledgements.count {
                if index > 0 { w.byte(.comma) }
                appendAckEntry(acknowledgements[index], to: &w)
            }
            w.byte(.closeBrace)
        }
        w.byte(.closeBrace)
    }

    /// `,"pinned":{"section":…,"y":…}`.
    func appendPinned(_ pinned: PinnedSection, to w: inout JSONWriter) {
        w.literal(#","pinned":{"section":"#)
        w.string(pinned.section)
        w.literal(#","y":"#)
        w.fixed(pinned.y, .length)
        w.byte(.closeBrace)
    }

    /// `"member":seq`, the member number as a decimal string key: one check for room where a token apiece
    /// made four (``JSONWriter/digitsMember(_:_:)``).
    @inline(__always)
    func appendAckEntry(_ entry: Acknowledgements.Entry, to w: inout JSONWriter) {
        w.digitsMember(UInt64(entry.member), entry.seq)
    }

    private func writeEvent(_ event: Event, to w: inout JSONWriter) {
        w.literal(#"{"type":"event","name":"#)
        // A library's event names ours as `kit`, what it stands for (docs/PROTOCOL.md, "event").
        w.plainString(event.library?.name ?? event.name.rawValue)
        if event.library != nil { w.member(#","kit":"#, plain: event.name) }
        w.member(#","edge":"#, plain: event.edge)
        w.member(#","from":"#, plain: event.from)
        w.member(#","to":"#, plain: event.to)
        w.literal(#","cause":"#)
        w.plainString(event.cause.rawValue)
        w.literal(#","t":"#)
        w.milliseconds(event.time)
        if let value = event.value {
            w.literal(#","value":"#)
            w.fixed(value, .eventValue)
        }
        w.byte(.closeBrace)
    }

    private func writeError(_ error: WireError, to w: inout JSONWriter) {
        w.literal(#"{"type":"error","code":"#)
        w.plainString(error.code.rawValue)
        w.literal(#","message":"#)
        w.string(error.message)
        w.member(#","ref":"#, string: error.ref)
        w.member(#","seq":"#, digits: error.seq)
        w.member(#","node":"#, string: error.node)
        w.byte(.closeBrace)
    }

    private func writeWelcome(_ welcome: Welcome, to w: inout JSONWriter) {
        w.literal(#"{"type":"welcome","session":"#)
        w.string(welcome.session)
        w.literal(#","token":"#)
        w.string(welcome.token)
        w.literal(#","preset":"#)
        w.string(welcome.preset)
        w.literal(#","presets":["#)
        for (i, name) in welcome.presets.enumerated() {
            if i > 0 { w.byte(.comma) }
            w.string(name)
        }
        w.byte(.closeBracket)
        if !welcome.catalogue.isEmpty {
            w.literal(#","catalogue":"#)
            appendCatalogue(welcome.catalogue, to: &w)
        }
        w.literal(#","config":"#)
        ConfigurationJSON.appendConfiguration(welcome.configuration, to: &w)
        w.literal(#","schema":"#)
        ConfigurationJSON.schemaJSON.withUnsafeBufferPointer { w.bytes($0) }
        w.literal(#","serverT":"#)
        w.milliseconds(welcome.serverTime)
        // The binary spellings this server reads (``BinaryTouch``): the page sends its touches so once it sees it.
        w.literal(#","protocol":"refreshkit.v1","binary":["touch"],"feed":"#)
        FeedJSON.writeWelcomeFeed(welcome.feed, to: &w)
        if let member = welcome.member {
            w.literal(#","member":"#)
            w.integer(Int64(member))
        }
        if welcome.resumed { w.literal(#","resumed":true"#) }
        w.member(#","ack":"#, digits: welcome.ack)
        w.member(#","notice":"#, string: welcome.notice)
        w.member(#","node":"#, string: welcome.node)
        welcome.writeAccessAndTakeOver(to: &w)
        w.byte(.closeBrace)
    }

    /// `{"x":…,"y":…}`, both at `precision` (an offset is a length, a velocity is not).
    private func appendPoint(_ point: Point, _ precision: WirePrecision, to w: inout JSONWriter) {
        w.literal(#"{"x":"#)
        w.fixed(point.x, precision)
        w.literal(#","y":"#)
        w.fixed(point.y, precision)
        w.byte(.closeBrace)
    }

    private func appendSize(_ size: Size, to w: inout JSONWriter) {
        w.literal(#"{"w":"#)
        w.fixed(size.width, .length)
        w.literal(#","h":"#)
        w.fixed(size.height, .length)
        w.byte(.closeBrace)
    }

    private func appendRect(_ rect: Rect, to w: inout JSONWriter) {
        w.literal(#"{"x":"#)
        w.fixed(rect.origin.x, .length)
        w.literal(#","y":"#)
        w.fixed(rect.origin.y, .length)
        w.literal(#","w":"#)
        w.fixed(rect.size.width, .length)
        w.literal(#","h":"#)
        w.fixed(rect.size.height, .length)
        w.byte(.closeBrace)
    }

    /// `[segment, …]`. A segment's `t1` is written when it has one; a spring without parameters is written
    /// without `mass`, `stiffness` and `damping`; a timed segment writes its `target` and its `curve` as
    /// `[x1, y1, x2, y2]` (linear when it has none), and no velocity: it follows from the curve.
    func appendChain(_ chain: [MotionSegment], to w: inout JSONWriter) {
        w.byte(.openBracket)
        for (i, segment) in chain.enumerated() {
            if i > 0 { w.byte(.comma) }
            w.literal(#"{"kind":"#)
            w.plainString(segment.kind.rawValue)
            w.literal(#","t0":"#)
            w.milliseconds(segment.start)
            if let end = segment.end {
                w.literal(#","t1":"#)
                w.milliseconds(end)
            }
            w.literal(#","x0":"#)
            w.fixed(segment.position, .length)
            switch segment.kind {
            case .hold:
                break
            case .decay:
                w.literal(#","v0":"#)
                w.fixed(segment.velocity, .velocity)
                w.literal(#","k":"#)
                w.fixed(segment.decayConstant, .motionConstant)
            case .spring:
                w.literal(#","v0":"#)
                w.fixed(segment.velocity, .velocity)
                w.literal(#","target":"#)
                w.fixed(segment.target, .length)
                if let spring = segment.spring {
                    w.literal(#","mass":"#)
                    w.fixed(spring.mass, .motionConstant)
                    w.literal(#","stiffness":"#)
                    w.fixed(spring.stiffness, .motionConstant)
                    w.literal(#","damping":"#)
                    w.fixed(spring.damping, .motionConstant)
                }
            case .timed:
                let curve = segment.curve ?? .linear
                w.literal(#","target":"#)
                w.fixed(segment.target, .length)
                w.literal(#","curve":["#)
                w.fixed(curve.x1, .curvePoint)
                w.byte(.comma)
                w.fixed(curve.y1, .curvePoint)
                w.byte(.comma)
                w.fixed(curve.x2, .curvePoint)
                w.byte(.comma)
                w.fixed(curve.y2, .curvePoint)
                w.byte(.closeBracket)
            }
            w.byte(.closeBrace)
        }
        w.byte(.closeBracket)
    }

    func appendEdge(_ edge: EdgeFrame, to w: inout JSONWriter) {
        w.literal(#"{"edge":"#)
        w.plainString(edge.edge.rawValue)
        w.literal(#","state":"#)
        w.plainString(edge.state.rawValue)
        w.literal(#","distance":"#)
        w.fixed(edge.distance, .length)
        w.literal(#","progress":"#)
        w.fixed(edge.progress, .fraction)
        w.literal(#","velocity":"#)
        w.fixed(edge.velocity, .velocity)
        w.literal(#","control":"#)
        appendRect(edge.control, to: &w)
        w.literal(#","view":"#)
        appendRect(edge.view, to: &w)
        w.literal(#","scale":"#)
        w.fixed(edge.scale, .fraction)
        if let cycle = edge.cycle {
            w.literal(#","cycle":{"index":"#)
            w.integer(Int64(cycle.index))
            w.literal(#","t0":"#)
            w.milliseconds(cycle.start)
            w.literal(#","duration":"#)
            w.fixed(cycle.duration, .duration)
            w.literal(#","delay":"#)
            w.fixed(cycle.delay, .duration)
            w.literal(#","kind":"#)
            w.plainString(cycle.kind.rawValue)
            w.byte(.closeBrace)
        }
        if let exit = edge.exit {
            w.literal(#","exit":{"t0":"#)
            w.milliseconds(exit.start)
            w.literal(#","duration":"#)
            w.fixed(exit.duration, .duration)
            w.byte(.closeBrace)
        }
        w.byte(.closeBrace)
    }
}
