import RefreshKit
import RefreshWire

/// A `ListModel` that records every call made on it (`TraceRecorder`), and the one place where a page
/// message becomes a model input: the server drives its sessions through this type, and ``TraceReplay``
/// drives a fresh one through the same calls, so a replay makes exactly the calls the server made.
///
/// Several pages (members) may drive one model. Their pointers are kept apart: a touch's pointer id is
/// namespaced by its member (``pointer(_:member:)``) before the engine sees it, and the engine follows only
/// the pointer that started a drag until it lifts, so a second device cannot take over a drag in progress.
///
/// It also keeps the model's `ack` map (`AcknowledgementTable`): the `seq` of each member's last applied
/// input, which every frame carries from the first `seq` on. The map follows from the applied messages
/// alone (their text holds the `seq`), so a replay rebuilds it, and the frames' digest covers it.
///
/// Its time never goes back: a call at a time earlier than the model's is made, and recorded, at the model's
/// own time (``sessionTime(_:)``). The engine would treat it so anyway (`ListModel.advance(to:)` never moves
/// backwards); recording it so keeps a trace's times in order. It happens when a process whose clock is a little
/// behind the one that ran the session before takes it over (docs/SCALING.md, "Several machines"): the session
/// holds its time until the new clock passes it.
public struct TracedListModel: Sendable {
    // The stored properties an input or a frame reads and writes come first, after the hot fields of the
    // ``Session`` that holds the model (its members, connections and versions): the flags and schedule, the
    // `ack` table, the recorder (whose own hot fields come first), then the two frames, and only then the
    // engine's model, the largest part, and what is read rarely (docs/PERFORMANCE.md, "Cold lines"). (Declared in
    // that order, so laid out in it; the one-byte flags right after the optional deadline, in the bytes its tag
    // leaves: the session object keeps its allocator class, docs/PERFORMANCE.md, "Memory per connected session".)
    /// `ListModel.nextDeadline` as of the last `apply` or `advance`, stored like ``isActive``.
    public private(set) var nextDeadline: Timestamp?
    /// Whether ``frameA`` is the latest frame (else ``frameB`` is).
    private var latestInA = false
    /// How many frames are kept: 0, 1 (the first frame), 2.
    private var framesKept: UInt8 = 0
    /// `ListModel.isActive` as of the last `apply` or `advance` (the only calls that move the model).
    /// Stored, because a host asks after every input and a computed property read from another module
    /// is handed a copy of the whole model and retains everything in it (docs/PERFORMANCE.md, "No copies per
    /// input").
    public private(set) var isActive = false
    /// `ListModel.feedMode`, which a model keeps for its life: stored, read after every input like
    /// ``isActive`` (docs/PERFORMANCE.md, "No copies per input").
    public let feedMode: FeedMode
    /// ``feedNews``, stored as its two parts (the flag among the flags).
    private var rowsChanged = false
    private var requestsEnded = 0
    /// `ListModel.feedNews()` as of the last `apply` or `advance`, stored like ``isActive``: whether rows
    /// changed, and how many requests ended in all.
    public var feedNews: (rows: Bool, answered: Int) { (rowsChanged, requestsEnded) }
    /// The members' pointers that are down (touched and not lifted, as far as the applied messages tell),
    /// ordered by member, then by when they went down: what a process that takes the session over lifts.
    public private(set) var pointersDown: [SessionSnapshot.Pointer] = []
    /// Each member's last applied `seq`.
    public private(set) var acknowledgements = AcknowledgementTable()
    public private(set) var recorder: TraceRecorder
    /// The two frames kept, ``latest`` and ``previous``, in two places that take turns: a new frame takes the
    /// place of the older one (whose arrays are freed as it is overwritten), and neither is moved or copied.
    /// Held as values, read in place by mutating methods: a frame made into an object shared by the session,
    /// the trace and each connection's delta base cost an allocation and a free per frame, and a retain and
    /// a release per holder (docs/PERFORMANCE.md, "The frame's two slots"). A place not yet filled holds
    /// ``emptyFrame``.
    private var frameA = Self.emptyFrame
    private var frameB = Self.emptyFrame
    public private(set) var model: ListModel
    private let encoder = MessageEncoder()
    /// The presets the header's and a `configure`'s preset names are looked up in.
    public let presets: PresetCatalogue
    /// The latest frame: the base of the next frame's update message (``frame(appendingUpdateTo:)``), and
    /// what a host sends the pages that are up to date. (A copy: a host reads it in place, through
    /// ``latestSequence`` and the `encodeLatest` methods.)
    public var latest: SharedFrame? {
        framesKept > 0 ? (latestInA ? frameA : frameB) : nil
    }
    /// The frame before ``latest``, kept for the pages that still hold it: the base of their next `delta`.
    /// Nil before the second frame. (A copy, as ``latest``.)
    public var previous: SharedFrame? {
        framesKept > 1 ? (latestInA ? frameB : frameA) : nil
    }
    /// ``latest``'s sequence number, read in place.
    public var latestSequence: UInt64? {
        framesKept > 0 ? (latestInA ? frameA.sequence : frameB.sequence) : nil
    }
    /// ``previous``'s sequence number, read in place.
    public var previousSequence: UInt64? {
        framesKept > 1 ? (latestInA ? frameB.sequence : frameA.sequence) : nil
    }

    /// A new model as `header` describes it, recording within `limits`, its frames' digest of kind
    /// `digest` (the deltas between them, unless replaying a trace whose digest is of another kind).
    public init(
        header: TraceHeader, limits: TraceLimits = .init(), digest: FrameDigest.Kind = .deltas,
        presets: PresetCatalogue = .seeds
    ) throws(ListModelError) {
        self.presets = presets
        model = try ListModel(
            viewport: header.viewport, devicePixelRatio: header.devicePixelRatio, preset: header.preset,
            in: presets, seed: header.seed, feed: header.feedMode, time: header.start)
        feedMode = model.feedMode
        recorder = TraceRecorder(header: header, limits: limits, digest: digest)
        noteSchedule()
    }

    /// The session `snapshot` holds (its binary form `encoded`, kept as the recording's start), recording the
    /// operations after it within `limits`.
    public init(
        header: TraceHeader, snapshot: SessionSnapshot, encoded: [UInt8], limits: TraceLimits = .init(),
        presets: PresetCatalogue = .seeds
    ) {
        self.presets = presets
        model = snapshot.model
        feedMode = snapshot.model.feedMode
        acknowledgements = snapshot.acknowledgements
        if let latest = snapshot.latest {
            frameA = SharedFrame(latest.frame, acknowledgements: latest.acknowledgements)
            (latestInA, framesKept) = (true, 1)
        }
        isActive = snapshot.isActive
        nextDeadline = snapshot.nextDeadline
        pointersDown = snapshot.pointersDown
        recorder = TraceRecorder(header: header, limits: limits, snapshot: snapshot, encoded: encoded)
    }

    /// The session's whole state now (`SessionSnapshot`).
    public func snapshot() -> SessionSnapshot {
        SessionSnapshot(
            model: model, acknowledgements: acknowledgements,
            latest: latest.map { SessionSnapshot.Latest(frame: $0.frame, acknowledgements: $0.acknowledgements) },
            frames: recorder.frames, isActive: isActive, nextDeadline: nextDeadline, pointersDown: pointersDown,
            operationsBefore: recorder.sessionOperationCount)
    }

    /// Starts the recording over from a snapshot of the session now
    /// (`TraceRecorder.restart(from:operationsBefore:)`).
    public mutating func takeSnapshot() {
        let snapshot = snapshot()
        recorder.restart(from: snapshot.encoded(), operationsBefore: snapshot.operationsBefore)
    }

    /// Applies `member`'s input at `clockTime` (``sessionTime(_:)``) and records its text. Once applied, its `seq` (when given) becomes
    /// `member`'s acknowledgement. Throws, changing nothing but the recording, when the engine refuses the
    /// input.
    public mutating func apply(_ received: ReceivedInput, member: Int, at clockTime: Timestamp) throws(ListModelError) {
        if case .touch(let touch) = received.input {
            try apply(touch, seq: received.seq, text: received.text, member: member, at: clockTime)
            return
        }
        let time = sessionTime(clockTime)
        recorder.recordApply(received.text, member: member, at: time)
        defer { noteSchedule() }  // a refused input may still have advanced the model to `time`
        // Another input is passed as received, not copied. Only a `configure` may name a preset to look up: a
        // wheel is not copied through the catalogue (docs/PERFORMANCE.md, "No copies per input").
        switch received.input {
        case .configure:
            try model.apply(presets.resolving(received.input), at: time)
        default:
            try model.apply(received.input, at: time)
        }
        if let seq = received.seq { acknowledgements.note(seq: seq, member: member) }
    }

    /// Applies `member`'s `touch`, received as `text` with `seq`, as ``apply(_:member:at:)`` applies a
    /// `ReceivedInput` of it: for a host that read the touch without making one (`MessageDecoder.plainTouchInput(_:)`;
    /// a `ReceivedInput` made for it was freed through its input type's value witnesses: docs/PERFORMANCE.md,
    /// "No copies per input"). `binary`: `text` is the touch's binary spelling (`BinaryTouch`), which the trace
    /// keeps as it came and exports as JSON.
    public mutating func apply(
        _ touch: TouchInput, seq: UInt64?, text: UnsafeRawBufferPointer, binary: Bool = false, member: Int,
        at clockTime: Timestamp
    ) throws(ListModelError) {
        let time = sessionTime(clockTime)
        if binary {
            recorder.recordBinaryApply(text, member: member, at: time)
        } else {
            recorder.recordApply(text, member: member, at: time)
        }
        notePointer(touch, member: member)
        // The touch as the engine sees it (``namespaced(_:member:)``).
        var namespaced = touch
        namespaced.pointer = Self.pointer(touch.pointer, member: member)
        let unchanged: Bool
        do throws(ListModelError) {
            unchanged = try model.apply(namespaced, at: time)
        } catch {
            noteSchedule()  // a refused input may still have advanced the model to `time`
            throw error
        }
        // A drag's move that only moved the content leaves the schedule as it was (``ListModel/apply(_:at:)``).
        if !unchanged { noteSchedule() }
        if let seq { acknowledgements.note(seq: seq, member: member) }
    }

    /// Moves the model to `clockTime` (`ListModel.advance(to:)`; ``sessionTime(_:)``), recorded.
    public mutating func advance(to clockTime: Timestamp) {
        let time = sessionTime(clockTime)
        recorder.recordAdvance(to: time)
        model.advance(to: time)
        noteSchedule()
    }

    /// The time a call at `clockTime` is made at: `clockTime`, or the model's time when that is later.
    @inline(__always)
    public func sessionTime(_ clockTime: Timestamp) -> Timestamp { max(clockTime, model.now) }

    /// Follows `member`'s pointers: a `start` or `move` leaves the pointer down (moved to the end of its member's
    /// pointers), anything else lifts it. (Inlined in the touch's ``apply(_:seq:text:binary:member:at:)``, its one
    /// caller: docs/PERFORMANCE.md, "Inlining on an input's path".)
    @inline(__always)
    private mutating func notePointer(_ touch: TouchInput, member: Int) {
        let index = pointersDown.firstIndex { $0.member == member && $0.pointer == touch.pointer }
        if let index, touch.phase == .move,
            pointersDown.index(after: index) == pointersDown.endIndex
                || pointersDown[pointersDown.index(after: index)].member != member
        {
            // Already the last of its member's: taking it out and putting it back would give the same array.
            // Every move of a drag comes here, and a remove and an insert would move the array's elements.
            pointersDown[index].pageTime = touch.pageTime
            return
        }
        if let index { pointersDown.remove(at: index) }
        guard touch.phase == .start || touch.phase == .move else { return }
        let position = pointersDown.firstIndex { $0.member > member } ?? pointersDown.endIndex
        pointersDown.insert(
            SessionSnapshot.Pointer(member: member, pointer: touch.pointer, pageTime: touch.pageTime), at: position)
    }

    private mutating func noteSchedule() {
        (isActive, nextDeadline) = model.schedule()
        (rowsChanged, requestsEnded) = model.feedNews()
    }

    /// Produces the model's next frame, appends the message that brings a page holding the previous frame
    /// to it — the `delta` from the previous frame, or the whole `frame` message for the first — to `buffer`,
    /// and records it; then starts the recording over from a snapshot when it is due
    /// (`TraceRecorder.wantsSnapshot`: the snapshot follows a frame, so it holds the base of the next delta). The
    /// one way a frame is made: the server's sessions and ``TraceReplay`` both take it, so a replay makes its
    /// frames exactly as the server did, and a recording that digests deltas takes these very bytes. The frame
    /// becomes ``latest``, and the one before it ``previous``. - Returns: the frame (a copy of ``latest``; a host
    /// that keeps its frames reads them in place instead, through `makeFrame(appendingUpdateTo:)`).
    @discardableResult
    public mutating func frame(appendingUpdateTo buffer: inout MessageBuffer) -> SharedFrame {
        makeFrame(appendingUpdateTo: &buffer)
        return latest!
    }

    /// ``frame(appendingUpdateTo:)`` without the copy of the frame it returns.
    mutating func makeFrame(appendingUpdateTo buffer: inout MessageBuffer) {
        let start = buffer.count
        // The new frame takes the place of the older one kept, and is the latest from now on. The older one is
        // freed before the model makes the new frame, which then fills that frame's edge array in place
        // (``ListModel/frame()``: an array still held here would be copied), and the new frame is
        // made in its place, with no placeholder stored and freed in between.
        latestInA.toggle()
        framesKept = min(framesKept + 1, 2)
        func replace(
            _ place: UnsafeMutablePointer<SharedFrame>, _ model: inout ListModel, _ table: inout AcknowledgementTable
        ) {
            place.deinitialize(count: 1)
            place.initialize(to: SharedFrame(model.frame(), acknowledgements: table.snapshot()))
        }
        if latestInA {
            withUnsafeMutablePointer(to: &frameA) { replace($0, &model, &acknowledgements) }
        } else {
            withUnsafeMutablePointer(to: &frameB) { replace($0, &model, &acknowledgements) }
        }
        if framesKept == 1 {
            encodeLatest(into: &buffer)
        } else if latestInA {
            encode(frameA, from: frameB, into: &buffer)
        } else {
            encode(frameB, from: frameA, into: &buffer)
        }
        switch recorder.frames.kind {
        case .deltas:
            buffer.withUnsafeBytes { recorder.recordFrameUpdate(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        case .text, .values:
            if latestInA { recorder.recordFrame(frameA.frame) } else { recorder.recordFrame(frameB.frame) }
        }
        if recorder.wantsSnapshot { takeSnapshot() }
    }

    // The frames are read in place by these methods, which are mutating, and which pick the frame they pass on
    // in an `if`: a frame chosen by `?:`, or read by a non-mutating method through a host's stored property, was
    // copied, a retain of each of its arrays.

    /// Appends the `frame` message of ``latest`` (which must exist) to `buffer`.
    mutating func encodeLatest(into buffer: inout MessageBuffer) {
        precondition(framesKept > 0, "a frame to encode")
        if latestInA {
            encoder.encode(frameA.frame, acknowledgements: frameA.acknowledgements, into: &buffer)
        } else {
            encoder.encode(frameB.frame, acknowledgements: frameB.acknowledgements, into: &buffer)
        }
    }

    /// Appends the `delta` that brings a page holding frame `base` to ``latest`` (which must exist) to `buffer`,
    /// when `base` is ``latest`` or ``previous``. - Returns: whether it did (it does nothing for another frame).
    mutating func encodeLatestDelta(from base: UInt64, into buffer: inout MessageBuffer) -> Bool {
        switch (base == previousSequence, base == latestSequence, latestInA) {
        case (true, _, true): encode(frameA, from: frameB, into: &buffer)
        case (true, _, false): encode(frameB, from: frameA, into: &buffer)
        case (false, true, true): encode(frameA, from: frameA, into: &buffer)
        case (false, true, false): encode(frameB, from: frameB, into: &buffer)
        case (false, false, _): return false
        }
        return true
    }

    /// Appends the `delta` from `base` (a frame older than ``previous`` that a page holds) to ``latest``.
    mutating func encodeLatestDelta(from base: borrowing SharedFrame, into buffer: inout MessageBuffer) {
        precondition(framesKept > 0, "a frame to encode")
        if latestInA {
            encode(frameA, from: base, into: &buffer)
        } else {
            encode(frameB, from: base, into: &buffer)
        }
    }

    /// The `delta` from `base` to `frame`, through the encoder's entry point for their parts (its entry point for
    /// two `SharedFrame`s copies each frame once more on the way).
    @inline(__always)
    private func encode(
        _ frame: borrowing SharedFrame, from base: borrowing SharedFrame, into buffer: inout MessageBuffer
    ) {
        encoder.encodeDelta(
            frame.frame, acknowledgements: frame.acknowledgements, from: base.frame,
            baseAcknowledgements: base.acknowledgements, into: &buffer)
    }

    /// What a place no frame has filled yet holds (no array in it allocates).
    private static var emptyFrame: SharedFrame {
        SharedFrame(
            Frame(
                sequence: 0, time: .zero, offset: .zero, velocity: .zero, phase: .idle, contentSize: .zero,
                viewport: .zero, insets: .zero, edges: [],
                feed: FeedFrame(count: 0, hasMore: false, loading: false, rowHeight: 0)))
    }

    /// Stops the recording (`TraceRecorder.stop()`); the model goes on.
    public mutating func stopRecording() {
        recorder.stop()
    }

    /// The model's events since the last call (not recorded: reading them changes nothing).
    public mutating func takeEvents() -> [Event] { model.takeEvents() }

    /// The changes of the list's rows since the last call (`ListModel.takeRowsUpdates()`; not
    /// recorded: reading them changes nothing the frames show).
    public mutating func takeRowsUpdates() -> [RowsUpdate]? { model.takeRowsUpdates() }

    /// The engine's pointer id for `member`'s pointer `pointer`: the member in the high 32 bits, the page's
    /// id (truncated to 32 bits) in the low ones.
    public static func pointer(_ pointer: Int, member: Int) -> Int {
        (member << 32) | (pointer & 0xFFFF_FFFF)
    }

    /// `input` with a touch's pointer namespaced by `member`.
    public static func namespaced(_ input: Input, member: Int) -> Input {
        guard case .touch(var touch) = input else { return input }
        touch.pointer = pointer(touch.pointer, member: member)
        return .touch(touch)
    }
}

extension TracedListModel {
    /// Notes where the trace's next record and the engine's buffers lie (``InputMemory``). `mutating` (it changes
    /// nothing) so that the model is read in place, not copied.
    mutating func noteInputMemory(_ memory: inout InputMemory) {
        (memory.traceChunk, memory.traceNext) = recorder.nextRecord()
        let buffers = model.moveBuffers()
        memory.controls = buffers.controls
        memory.liveControls = buffers.live
        memory.edges = buffers.edges
        memory.spareEdges = buffers.spareEdges
    }
}
