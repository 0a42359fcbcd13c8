import RefreshKit

/// Records a session's input trace as it happens: every `apply` (the page's message text exactly as
/// received, and the member that sent it), every `advance(to:)` and every `frame()`, in order, with their
/// engine times; and the running ``FrameDigest`` of the frames (of the deltas between them, unless a replay
/// of an older trace asks for another kind). Replaying the operations through a fresh session gives the same
/// frames, byte for byte (`TraceReplay`).
///
/// The operations are kept as compact binary records (`OperationLog`) and written as JSON only when the
/// trace is exported: recording runs on every input of every session, exporting almost never. Every so often
/// (``TraceLimits/snapshotOperations``, ``TraceLimits/snapshotBytes``) the recording starts over from a
/// ``SessionSnapshot`` of the session (``restart(from:operationsBefore:)``): the trace is then the snapshot and
/// the operations after it, and the frames' digest goes on from the session's start. Memory is bounded by
/// ``TraceLimits``: at the limit the recorder stops (operations, frames and digest alike, so what was recorded
/// still replays exactly) and the trace is marked `truncated` (with the default limits, the snapshots come
/// long before it).
///
/// Its stored properties come in two groups: those every operation reads and writes, together and first (so
/// that they follow the hot fields of a holder that puts the recorder among its own, as `TracedListModel`
/// does), then those read only now and then (the header, the limits, the snapshot), so that a record touches
/// as little of the session's state as it can (a server with many sessions finds it cold on each input), and the
/// limits are read only past two marks kept among them (`admit(_:)`) (docs/PERFORMANCE.md, "Cold lines").
public struct TraceRecorder: Sendable {
    /// The operations so far.
    @usableFromInline private(set) var operations = OperationLog()
    /// `snapshot`'s bytes, which ``byteCount`` (read after each operation) adds: its array is not read for them.
    @usableFromInline private(set) var snapshotByteCount = 0
    /// Operations recorded so far, since the latest snapshot.
    public private(set) var operationCount = 0
    /// While fewer operations than this were recorded, and an operation's bytes fit within `byteMark`, it is
    /// recorded with no other check, and below both no snapshot is due (``setMarks()``).
    private var operationMark = 0
    private var byteMark = 0
    /// The frames recorded so far (from the session's start) and their digest.
    public private(set) var frames: FrameDigest

    // What is read only now and then, from here on.

    public let header: TraceHeader
    public let limits: TraceLimits
    /// Operations the session recorded before the latest snapshot.
    public private(set) var operationsBefore = 0
    /// The recording reached a limit and stopped.
    public private(set) var truncated: Bool
    /// The binary form of the snapshot the operations start from; `nil`: the session's start.
    public private(set) var snapshot: [UInt8]?
    /// Counts the snapshots this recorder started over from: a store that wrote the operations of one writes
    /// the trace whole when it changes.
    public private(set) var snapshotCount = 0
    /// For a partial export (``exported(for:)``): the member whose messages alone it holds.
    public private(set) var partialFor: Int?

    /// `digest` is what the frames' digest is taken over: the deltas between them for a new recording; a
    /// replay takes the kind of the trace it replays.
    public init(header: TraceHeader, limits: TraceLimits = .init(), digest: FrameDigest.Kind = .deltas) {
        self.header = header
        self.limits = limits
        frames = FrameDigest(kind: digest)
        truncated = limits.maxOperations <= 0 || limits.maxBytes <= 0
        setMarks()
    }

    /// Sets the marks: each the lower of a limit and the snapshots' threshold of the same kind (operations,
    /// bytes), so that below them ``admit(_:)`` records with no other check and ``wantsSnapshot`` is false;
    /// nothing is below them once the recording is truncated. Never negative, so that `admit` subtracts from
    /// them without overflow.
    private mutating func setMarks() {
        guard !truncated else {
            (operationMark, byteMark) = (0, 0)
            return
        }
        operationMark = max(0, min(limits.maxOperations, limits.snapshotOperations))
        byteMark = max(0, min(limits.maxBytes, limits.snapshotBytes))
    }

    /// The recording so far, to hand out (a `trace` message): it holds only the bytes of its records, so a reply
    /// waiting to be sent keeps no more than it will send (`OperationLog/exported()`).
    public func exported() -> TraceRecorder {
        var copy = self
        copy.operations = operations.exported()
        return copy
    }

    /// The recording so far as member `member` may see it (PROTOCOL.md, "trace"): ``exported()`` whose JSON holds
    /// the ticks, the frames and their digest, but only `member`'s own messages, and no snapshot (the session's
    /// state, which others' inputs made); it says `"partial":true`. `nil`: the whole recording (the owner's).
    public func exported(for member: Int?) -> TraceRecorder {
        var copy = exported()
        copy.partialFor = member
        return copy
    }

    /// A recorder that goes on from `snapshot` (its binary form `encoded`): the operations after it are
    /// recorded, and the frames' digest continues the snapshot's.
    public init(header: TraceHeader, limits: TraceLimits = .init(), snapshot: SessionSnapshot, encoded: [UInt8]) {
        self.init(header: header, limits: limits, digest: snapshot.frames.kind)
        frames = snapshot.frames
        operationsBefore = snapshot.operationsBefore
        if !truncated { (self.snapshot, snapshotByteCount) = (encoded, encoded.count) }
    }

    /// Bytes the recording holds: the recorded operations (compact records: the exported JSON is larger) and
    /// the snapshot they start from.
    @inlinable public var byteCount: Int { operations.byteCount + snapshotByteCount }

    /// Operations the session recorded from its start: those before the latest snapshot and those after it.
    public var sessionOperationCount: Int { operationsBefore + operationCount }

    /// About how many bytes the trace's JSON takes (a record's JSON is usually under 48 bytes longer than its
    /// compact form, a binary touch's under 112: its five numbers are written out; a snapshot's base64 a third
    /// longer than its bytes), for reserving room before exporting it.
    public var jsonByteEstimate: Int {
        operations.byteCount + 48 * operationCount + 64 * operations.binaryApplyCount + 2 * (snapshot?.count ?? 0)
            + 512 + 6 * header.preset.utf8.count
    }

    /// Stops recording now, as if a limit had been reached (the trace is `truncated`): e.g. when the host's
    /// memory budget for all its traces is spent. No later snapshot starts it again.
    public mutating func stop() {
        truncated = true
        setMarks()
    }

    /// Whether the recording is to start over from a snapshot with the next frame: enough operations or bytes
    /// since the last one (``TraceLimits``). A recording that reached a limit first (limits lower than the
    /// snapshots' interval) stays `truncated`, as one without snapshots.
    public var wantsSnapshot: Bool {
        // Below the marks, none is (``setMarks()``): the limits are read only past them.
        if operationCount < operationMark && operations.byteCount < byteMark { return false }
        return !truncated
            && (operationCount >= limits.snapshotOperations || operations.byteCount >= limits.snapshotBytes)
    }

    /// Starts the recording over from `snapshot` (a ``SessionSnapshot``'s binary form, taken now): the
    /// operations so far are dropped (they lead to the snapshot), the digest goes on. `operationsBefore`: the
    /// session's operations up to the snapshot (``sessionOperationCount``).
    public mutating func restart(from snapshot: [UInt8], operationsBefore: Int) {
        guard !truncated else { return }
        operations = OperationLog()
        operationCount = 0
        self.operationsBefore = operationsBefore
        self.snapshot = snapshot
        snapshotByteCount = snapshot.count
        snapshotCount += 1
    }

    /// Whether the next operation is recorded: `needed` more bytes fit. Below the marks (``setMarks()``) it is,
    /// without reading the limits; at them, ``admitAtMarks(_:)`` decides.
    @inline(__always)
    private mutating func admit(_ needed: Int) -> Bool {
        guard operationCount < operationMark, needed <= byteMark &- operations.byteCount else {
            return admitAtMarks(needed)
        }
        operationCount &+= 1
        return true
    }

    /// ``admit(_:)`` at a mark: as the limits say.
    @inline(never)
    private mutating func admitAtMarks(_ needed: Int) -> Bool {
        guard !truncated else { return false }
        if operationCount >= limits.maxOperations || needed > limits.maxBytes - operations.byteCount {
            stop()
            return false
        }
        operationCount += 1
        return true
    }

    /// Where the next record goes: the tail chunk's object and the address of its next byte. For a host that asks
    /// the CPU to fetch what a session's next input will write (RefreshServer's `SessionPrefetch`).
    /// `mutating` (it changes nothing) so that the recorder is read in place, not copied.
    package mutating func nextRecord() -> (chunk: UnsafeRawPointer, bytes: UnsafeRawPointer) { operations.nextRecord }

    /// `{"t":µs,"member":m,"apply":MESSAGE}`: a page message the decoder accepted, its text as received.
    public mutating func recordApply(_ text: UnsafeRawBufferPointer, member: Int, at time: Timestamp) {
        guard admit(OperationLog.applyBound(text.count)) else { return }
        operations.appendApply(text, member: member, at: time)
    }

    /// `{"t":µs,"member":m,"apply":TOUCH}`: a binary touch the decoder accepted (``BinaryTouch``), exported as
    /// its JSON text.
    public mutating func recordBinaryApply(_ bytes: UnsafeRawBufferPointer, member: Int, at time: Timestamp) {
        guard admit(OperationLog.applyBound(bytes.count)) else { return }
        operations.appendBinaryApply(bytes, member: member, at: time)
    }

    /// `{"t":µs,"advance":true}`.
    public mutating func recordAdvance(to time: Timestamp) {
        guard admit(OperationLog.headBound) else { return }
        operations.appendAdvance(to: time)
    }

    /// `{"frame":true}`, and `update` into a digest of deltas (``FrameDigest/addUpdate(_:)``): the message that
    /// brings a page holding the previous frame to this one. What ``recordFrame(_:encoded:update:)`` does for
    /// that kind, without the frame: passing one out of a `SharedFrame` copied it, its arrays retained and
    /// released, on every frame (docs/PERFORMANCE.md, "No copies per input").
    public mutating func recordFrameUpdate(_ update: UnsafeRawBufferPointer) {
        precondition(frames.kind == .deltas, "only a digest of deltas is made from the update messages alone")
        guard admit(1) else { return }
        operations.appendFrame()
        frames.addUpdate(update)
    }

    /// `{"frame":true}`, and the frame into the digest, which takes what its kind says: the frame's values;
    /// its `frame` message (`encoded` when the caller has it, else encoded here); or `update`, the message
    /// that brings a page holding the previous frame to this one (``FrameDigest/addUpdate(_:)``; required
    /// for that kind: only the caller knows the previous frame).
    public mutating func recordFrame(
        _ frame: Frame, encoded: UnsafeRawBufferPointer? = nil, update: UnsafeRawBufferPointer? = nil
    ) {
        guard admit(1) else { return }
        operations.appendFrame()
        switch frames.kind {
        case .deltas:
            guard let update else { preconditionFailure("a digest of deltas needs each frame's update message") }
            frames.addUpdate(update)
        case .values:
            frames.add(frame)
        case .text:
            if let encoded {
                frames.add(encoded)
            } else {
                var bytes: [UInt8] = []
                MessageEncoder().encode(frame, into: &bytes)
                bytes.withUnsafeBytes { frames.add($0) }
            }
        }
    }

    /// Appends the trace's JSON (docs/TRACE.md) to `buffer`.
    public func encodeTrace(into buffer: inout [UInt8]) {
        encodeHead(into: &buffer)
        // Each operation on its own line, after a comma from the second on.
        var first = true
        // swift-format-ignore: ReplaceForEachWithForLoop
        // OperationLog is not a Sequence: its forEach walks the packed log without building records.
        operations.forEach { record in
            if let partialFor, case .apply(_, let member, _) = record, member != partialFor { return }
            Self.encode(record, separator: first ? "\n" : ",\n", into: &buffer)
            first = false
        }
        if !first { buffer.append(.newline) }
        encodeSummary(into: &buffer)
    }

    /// The trace's JSON up to its operations: `{"format":…,"start":µs,"ops":[`, with `"snapshot":"…"` before
    /// `"ops"` when the operations start from one.
    public func encodeHead(into buffer: inout [UInt8]) {
        let strings = header.preset.utf8.count + (header.feedSource?.utf8.count ?? 0)
        appendJSON(to: &buffer, bound: 288 + 6 * strings) { w in
            w.literal(#"{"format":"refreshkit.trace.v2","preset":"#)
            w.string(header.preset)
            w.literal(#","viewport":{"w":"#)
            w.exact(header.viewport.width)
            w.literal(#","h":"#)
            w.exact(header.viewport.height)
            w.literal(#"},"dpr":"#)
            w.exact(header.devicePixelRatio)
            w.literal(#","seed":"#)
            w.digits(header.seed)
            w.literal(#","start":"#)
            w.integer(header.start.microseconds)
            w.member(#","feedSource":"#, string: header.feedSource)
        }
        if let snapshot, partialFor == nil {
            buffer.append(contentsOf: #","snapshot":""#.utf8)
            Base64.encode(snapshot, into: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(contentsOf: #","ops":["#.utf8)
    }

    /// The trace's JSON after its operations, as of now: `],"frames":N,"digest":…,"truncated":…}`, and
    /// `,"partial":true,"member":N` for a partial export (``exported(for:)``).
    public func encodeSummary(into buffer: inout [UInt8]) {
        appendJSON(to: &buffer, bound: 144) { w in
            w.literal(#"],"frames":"#)
            w.digits(frames.count)
            w.literal(#","digest":""#)
            for index in 0..<16 {
                let nibble = UInt8((frames.value >> UInt64(60 - 4 * index)) & 0xF)
                w.byte(nibble < 10 ? .digit0 &+ nibble : 0x61 &+ nibble &- 10)
            }
            w.literal(#"","digestOf":"#)
            w.plainString(frames.kind.rawValue)
            w.literal(#","truncated":"#)
            w.bool(truncated)
            if let partialFor {
                w.literal(#","partial":true,"member":"#)
                w.integer(Int64(partialFor))
            }
            w.byte(.closeBrace)
        }
    }

    /// Where ``encodeOperations(after:_:)`` stopped: the operations before it were handed out already.
    public struct OperationCursor: Sendable, Hashable {
        var position = OperationLog.Cursor()
        /// Operations handed out so far.
        public internal(set) var count = 0
        public init() {}
    }

    /// Calls `body` with the JSON of each operation recorded after `cursor` (one element of the trace's
    /// `ops`, no separator), oldest first, and moves `cursor` past them: a store appends these since its
    /// previous write, and ``encodeHead(into:)`` + the elements joined by commas + ``encodeSummary(into:)`` is
    /// the trace.
    public func encodeOperations(after cursor: inout OperationCursor, _ body: ([UInt8]) -> Void) {
        var buffer: [UInt8] = []
        var handed = 0
        operations.forEach(after: &cursor.position) { record in
            buffer.removeAll(keepingCapacity: true)
            Self.encode(record, separator: "", into: &buffer)
            body(buffer)
            handed += 1
        }
        cursor.count += handed
    }

    /// One operation's JSON, after `separator`.
    private static func encode(_ record: OperationLog.Record, separator: StaticString, into buffer: inout [UInt8]) {
        switch record {
        case .apply(let time, let member, let text):
            appendJSON(to: &buffer, bound: 72) { w in  // 2 + 5 + 20 + 10 + 20 + 9 bytes at most
                w.literal(separator)
                w.literal(#"{"t":"#)
                w.integer(time.microseconds)
                w.literal(#","member":"#)
                w.integer(Int64(member))
                w.literal(#","apply":"#)
            }
            buffer.append(contentsOf: text)
            buffer.append(.closeBrace)
        case .advance(let time):
            appendJSON(to: &buffer, bound: 48) { w in
                w.literal(separator)
                w.literal(#"{"t":"#)
                w.integer(time.microseconds)
                w.literal(#","advance":true}"#)
            }
        case .frame:
            appendJSON(to: &buffer, bound: 24) { w in
                w.literal(separator)
                w.literal(#"{"frame":true}"#)
            }
        }
    }

    /// Appends the `trace` message, `{"type":"trace","trace":TRACE}`, to `buffer`.
    public func encodeMessage(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"type":"trace","trace":"#.utf8)
        encodeTrace(into: &buffer)
        buffer.append(.closeBrace)
    }

    /// The trace's JSON.
    public func json() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(jsonByteEstimate)
        encodeTrace(into: &buffer)
        return buffer
    }
}
