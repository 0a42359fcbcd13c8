import RefreshWire

/// What a host has written to its store, per session, and when it writes next: the batching rule as a
/// value (docs/SCALING.md). Every ``period`` the host asks for a batch (``batch(for:node:at:force:)``): one
/// write per session whose trace or members changed since its last write, carrying only the operations
/// recorded since (or the whole trace: the first time, after the store's answer was anything but "taken", and
/// after the recording started over from a snapshot, ``TraceRecorder/restart(from:operationsBefore:)``).
///
/// The store answers later, from another thread (``settle(_:at:)``), so the rule that keeps the stored
/// traces whole is about order:
/// - **one batch at a time.** No batch is made while one is unanswered (``Phase/writing(batch:since:)``): an
///   append is only ever made once the write before it is known to have been taken.
/// - **whole after any doubt.** A batch that failed, or may have reached the store in part, turns every
///   session's next write whole; an append the store refused (its copy was not the one the append
///   continues) turns that session's next write whole.
/// - **appends name the copy they continue** (``StoreWrite/generation``, ``StoreWrite/base``): an append
///   that reaches the store late, after a newer whole write, is refused there rather than applied.
struct StoreLedger {
    /// How often the recorded operations go to the store: what a SIGKILL may lose, at most (while the store
    /// answers within it).
    static let period: Int64 = 100_000

    struct Entry {
        var cursor = TraceRecorder.OperationCursor()
        var members: StoredMembers?
        var whole = true
        /// The copy this session's appends continue (its last whole write's).
        var generation = ""
        /// The fencing epoch this process holds the session at (``SessionFence``).
        var epoch = SessionFence.first
        /// The recorder's snapshot the written operations start from (``TraceRecorder/snapshotCount``).
        var snapshotCount = 0
    }

    /// Whether a batch waits for the store's answer.
    enum Phase: Equatable {
        case idle
        /// Batch `batch`, handed over at `since` (µs), is not answered yet.
        case writing(batch: UInt64, since: Int64)
    }

    /// What an answer changed.
    enum Settled: Equatable {
        /// Not the batch being waited for (already settled): nothing changed.
        case ignored
        /// Taken. `backAfter`: the store had been away this long (µs), and is back.
        case written(refused: Int, backAfter: Int64?)
        /// Failed. `wentAway`: it was reachable until now.
        case failed(wentAway: Bool)
    }

    private(set) var entries: [String: Entry] = [:]
    private(set) var phase = Phase.idle
    /// When the next write is due (µs).
    private(set) var nextWrite: Int64 = 0
    /// Since when the store has been away (the first failure since it last took a batch); `nil`: reachable.
    private(set) var awaySince: Int64?
    /// Sessions to forget in the store, with the next batch.
    private(set) var removals: [String] = []
    private var batchesMade: UInt64 = 0
    private var wholeWrites: UInt64 = 0
    /// The removals of the batch being written (handed back to ``removals`` if it fails).
    private var removalsWritten: [String] = []

    /// Whether the store has been reachable as far as the host knows.
    var available: Bool { awaySince == nil }
    /// Whether a batch waits for its answer, or removals for a batch: the host keeps its sweep running.
    var hasWork: Bool { phase != .idle || !removals.isEmpty }

    /// The batch that brings the store up to date with `sessions` (only the sessions that changed) and
    /// carries `lease`, if one is due at `now` (or `force`d: a take-over, shutting down) and none is
    /// unanswered; `nil` otherwise, or when there is nothing to write. The next is due a period later.
    mutating func batch(
        for sessions: some Sequence<Session>, node: String, lease: StoreLeaseChange? = nil, at now: Int64,
        force: Bool = false
    ) -> StoreBatch? {
        guard phase == .idle, force || now >= nextWrite else { return nil }
        nextWrite = now + Self.period
        var writes: [StoreWrite] = []
        for session in sessions {
            if let write = write(of: session, node: node) { writes.append(write) }
        }
        guard !writes.isEmpty || !removals.isEmpty || lease != nil else { return nil }
        batchesMade += 1
        phase = .writing(batch: batchesMade, since: now)
        removalsWritten = removals
        removals = []
        return StoreBatch(number: batchesMade, writes: writes, removals: removalsWritten, lease: lease, node: node)
    }

    private mutating func write(of session: Session, node: String) -> StoreWrite? {
        var entry = entries[session.id] ?? Entry()
        let recorder = session.traced.recorder
        let members = session.storedMembers()
        let membersChanged = entry.members != members
        // The recording started over from a snapshot: the store's copy is replaced by the snapshot and the
        // operations after it (a whole write; its head carries the snapshot).
        if recorder.snapshotCount != entry.snapshotCount { entry.whole = true }
        if !entry.whole && !membersChanged && recorder.operationCount == entry.cursor.count { return nil }
        var head: [UInt8] = []
        if entry.whole {
            entry.cursor = TraceRecorder.OperationCursor()
            entry.snapshotCount = recorder.snapshotCount
            recorder.encodeHead(into: &head)
            wholeWrites += 1
            entry.generation = "\(node).\(wholeWrites)"
        }
        var operations: [[UInt8]] = []
        recorder.encodeOperations(after: &entry.cursor) { operations.append($0) }
        var summary: [UInt8] = []
        recorder.encodeSummary(into: &summary)
        let write = StoreWrite(
            session: session.id, node: node, whole: entry.whole, head: head, generation: entry.generation,
            operations: operations, summary: summary, operationCount: entry.cursor.count,
            members: membersChanged || entry.whole ? members : nil, epoch: entry.epoch)
        entry.whole = false
        entry.members = members
        entries[session.id] = entry
        return write
    }

    /// The store's answer to a batch, at `now`.
    mutating func settle(_ report: StoreReport, at now: Int64) -> Settled {
        guard case .writing(let batch, _) = phase, batch == report.batch else { return .ignored }
        phase = .idle
        switch report.outcome {
        case .written(let refused):
            for id in refused where entries[id] != nil { entries[id]!.whole = true }
            removalsWritten = []
            let backAfter = awaySince.map { now - $0 }
            awaySince = nil
            return .written(refused: refused.count, backAfter: backAfter)
        case .failed:
            for id in entries.keys { entries[id]!.whole = true }
            removals = removalsWritten + removals
            removalsWritten = []
            let wentAway = awaySince == nil
            if wentAway { awaySince = now }
            return .failed(wentAway: wentAway)
        }
    }

    // MARK: - Fencing (SessionFence)

    /// Session `id`, taken over at `epoch` (``SessionFence/claim(after:)``): its first write (whole) claims it.
    mutating func claim(_ id: String, epoch: Int64) {
        entries[id] = Entry(epoch: epoch)
    }

    /// The epoch this process holds session `id` at.
    func epoch(of id: String) -> Int64 { entries[id]?.epoch ?? SessionFence.first }

    /// Session `id` is held by another process now: nothing more is written for it, and the store keeps it.
    mutating func release(_ id: String) {
        entries[id] = nil
        removals.removeAll { $0 == id }
    }

    /// Session `id` is gone: nothing more is written for it, and the store forgets it with the next batch.
    mutating func forget(_ id: String) {
        entries[id] = nil
        removals.append(id)
    }
}
