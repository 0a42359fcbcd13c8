import RefreshWire

/// What a host has written to its store, per session, and when it writes next: the batching rule as a
/// value (docs/SCALING.md). Every ``period`` the host asks for the writes (``writes(for:node:at:)``): one per
/// session whose trace or members changed since its last write, carrying only the operations recorded since
/// (or the whole trace, the first time and after the store was away). A write the store refused
/// (``failed()``) turns every session's next write whole, so nothing the store missed stays missing.
struct StoreLedger {
    /// How often the recorded operations go to the store: what a SIGKILL may lose, at most.
    static let period: Int64 = 100_000

    struct Entry {
        var cursor = TraceRecorder.OperationCursor()
        var members: StoredMembers?
        var whole = true
    }

    private(set) var entries: [String: Entry] = [:]
    /// When the next write is due (µs).
    private(set) var nextWrite: Int64 = 0
    /// Whether the last write reached the store.
    private(set) var available = true

    /// Whether a write is due at `now`; if so, the next one is due a period later.
    mutating func due(at now: Int64) -> Bool {
        guard now >= nextWrite else { return false }
        nextWrite = now + Self.period
        return true
    }

    /// The writes that bring the store up to date with `sessions` (only the sessions that changed).
    mutating func writes(for sessions: some Sequence<Session>, node: String) -> [StoreWrite] {
        var writes: [StoreWrite] = []
        for session in sessions {
            var entry = entries[session.id] ?? Entry()
            let recorder = session.traced.recorder
            let members = session.storedMembers()
            let membersChanged = entry.members != members
            if !entry.whole && !membersChanged && recorder.operationCount == entry.cursor.count { continue }
            var head: [UInt8] = []
            if entry.whole {
                entry.cursor = TraceRecorder.OperationCursor()
                recorder.encodeHead(into: &head)
            }
            var operations: [[UInt8]] = []
            recorder.encodeOperations(after: &entry.cursor) { operations.append($0) }
            var summary: [UInt8] = []
            recorder.encodeSummary(into: &summary)
            writes.append(
                StoreWrite(
                    session: session.id, node: node, whole: entry.whole, head: head, operations: operations,
                    summary: summary, operationCount: entry.cursor.count,
                    members: membersChanged || entry.whole ? members : nil))
            entry.whole = false
            entry.members = members
            entries[session.id] = entry
        }
        return writes
    }

    /// The store took the writes. - Returns: whether it had been away (it is back now).
    mutating func succeeded() -> Bool {
        defer { available = true }
        return !available
    }

    /// The store refused the writes: every session is written whole next time. - Returns: whether it was
    /// reachable until now (it has just gone away).
    mutating func failed() -> Bool {
        for id in entries.keys { entries[id]!.whole = true }
        defer { available = false }
        return available
    }

    /// Session `id` is gone: nothing more is written for it.
    mutating func forget(_ id: String) {
        entries[id] = nil
    }
}
