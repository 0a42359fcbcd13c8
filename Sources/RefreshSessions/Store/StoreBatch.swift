/// What a store is to change about one session.
///
/// A write is *whole* (the store's copy is replaced: the first write of a session, and every write after one
/// whose fate is unknown) or an *append* (the operations recorded since the previous write). An append
/// continues one copy only: the one its session's last whole write made (`generation`), holding exactly
/// ``base`` operations. A store applies it to that copy, and to nothing else: any other copy (none, another
/// generation, more or fewer operations) refuses it and stays as it was. So an append the store receives late
/// (sent on a connection that was given up, read by Redis after a newer whole write) can never leave a gap or
/// a repeat in a session's operations, which would make its take-over replay a different session.
public struct StoreWrite: Sendable, Hashable {
    public var session: String
    /// The node that holds the session now.
    public var node: String
    /// Replace what the store has of the session: `head` is then the trace's JSON up to its operations.
    public var whole: Bool
    public var head: [UInt8]
    /// Names the copy this write makes (whole) or continues (append): unique per whole write of this process.
    public var generation: String
    /// The operations recorded since the previous write (each one element of the trace's `ops`), in order.
    public var operations: [[UInt8]]
    /// The trace's JSON after its operations as of this write: the frames' count and digest.
    public var summary: [UInt8]
    /// Operations the store holds after this write.
    public var operationCount: Int
    /// The members, when they changed since the previous write (else `nil`).
    public var members: StoredMembers?
    /// The writer's fencing epoch for the session (``SessionFence``): the store refuses the write when it holds a
    /// newer one, or the same one claimed by another process.
    public var epoch: Int64

    /// Operations the store's copy must hold for an append to apply (for a whole write, 0).
    public var base: Int { operationCount - operations.count }

    public init(
        session: String, node: String, whole: Bool, head: [UInt8], generation: String, operations: [[UInt8]],
        summary: [UInt8], operationCount: Int, members: StoredMembers?, epoch: Int64 = SessionFence.first
    ) {
        self.session = session
        self.node = node
        self.whole = whole
        self.head = head
        self.generation = generation
        self.operations = operations
        self.summary = summary
        self.operationCount = operationCount
        self.members = members
        self.epoch = epoch
    }
}

/// The writes of one period, handed to the store as one piece of work (``HostAction/writeStore(_:)``); the
/// store answers with a ``StoreReport`` naming its `number`.
public struct StoreBatch: Sendable {
    /// Counts the host's batches from 1.
    public var number: UInt64
    public var writes: [StoreWrite]
    /// Sessions that expired: the store forgets them.
    public var removals: [String]
    /// What becomes of this node's lease, after the writes (`NodeLease`).
    public var lease: StoreLeaseChange?
    /// The node whose fencing notices the batch collects (``StoreFence``: its sessions another process took over
    /// since its last batch); empty: none.
    public var node: String
    /// The fencing notices the last answer carried, to clear from the store with this batch (each only while it
    /// still names the same epoch): a notice is cleared only once an answer that carried it was read, so a batch
    /// whose answer is lost cannot take a notice away unseen (``ServingLease``).
    public var noticesSeen: [StoreFence]

    public init(
        number: UInt64, writes: [StoreWrite], removals: [String] = [], lease: StoreLeaseChange? = nil,
        node: String = "", noticesSeen: [StoreFence] = []
    ) {
        self.number = number
        self.writes = writes
        self.removals = removals
        self.lease = lease
        self.node = node
        self.noticesSeen = noticesSeen
    }
}

/// A batch's change to a node's lease (docs/SCALING.md, "Who holds a session"; `NodeLease`).
public enum StoreLeaseChange: Sendable, Hashable {
    /// Node `node` is alive for the next `milliseconds`.
    case renew(node: String, milliseconds: Int)
    /// Node `node` stops (SIGTERM, once every session is written): its lease ends now.
    case end(node: String)
}

/// What became of a ``StoreBatch``.
public enum StoreOutcome: Sendable, Hashable {
    /// The store applied the batch, except the appends of the sessions in `refused` (their copy in the store
    /// is not the one the append continues; they are written whole next).
    case written(refused: [String])
    /// The batch did not reach the store, or may have reached it in part: every session is written whole next.
    case failed(reason: String)
}

/// A store's answer to batch `batch` (``SessionHost/storeAnswered(_:at:)``).
public struct StoreReport: Sendable, Hashable {
    public var batch: UInt64
    public var outcome: StoreOutcome
    /// Sessions this node no longer holds: a write refused for its epoch, or a notice that another process took
    /// the session over (``SessionFence``). The host stops serving each at once.
    public var fenced: [StoreFence]
    /// The sessions whose take-over this batch claimed over another process's copy, each with how long (µs)
    /// that process's serving lease still ran by the store's clock (``ServingLease``).
    public var claims: [String: Int64]

    public init(batch: UInt64, outcome: StoreOutcome, fenced: [StoreFence] = [], claims: [String: Int64] = [:]) {
        self.batch = batch
        self.outcome = outcome
        self.fenced = fenced
        self.claims = claims
    }
}
