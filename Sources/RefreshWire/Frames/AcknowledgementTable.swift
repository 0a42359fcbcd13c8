/// The session's working `ack` map, kept by `TracedListModel`: updated by every applied input that carries a
/// `seq`, and copied into each frame as ``Acknowledgements`` when it changed.
///
/// **The bound.** A session's members come and go (a page that loses its token comes back as a new member),
/// so the table keeps at most ``capacity`` members: when a member not in it needs an entry and it is full,
/// the entry of the member whose last `seq`'d input was applied longest ago is dropped (its `ack` entry
/// becomes `null` in the next delta). Only the order of applied inputs decides, which the trace records, so
/// a replay drops the same entries.
///
/// Updating an entry allocates nothing; the table's memory grows once per new member, up to the bound.
///
/// **The recent member.** Its rows are an array, a heap object of their own, cold when a session's next input
/// comes (a server at 1 000 sessions). The member that noted last keeps its row in the table itself
/// (`recent`), newer than its copy in `rows`, and the frame's map (`last`) is patched from it: a page
/// that keeps sending reads and writes no row, a cold object an input no longer touches (docs/PERFORMANCE.md,
/// "Cold lines").
/// The rows take the recent row back (`settle()`) before another member's note changes them.
public struct AcknowledgementTable: Sendable, Codable {
    /// The most members the table keeps.
    public static let capacity = 64

    struct Row: Codable {
        var member: Int
        var seq: UInt64
        /// When the member's last `seq`'d input was applied, as a count of such inputs.
        var used: UInt64
    }

    /// Ordered by member number; the recent member's row is ``recent`` while ``recentIndex`` is not negative.
    private var rows: [Row] = []
    private var clock: UInt64 = 0
    /// The table changed since ``snapshot()`` last made a value.
    private var changed = false
    /// The rows changed other than in the recent member's `seq`: ``last`` is made again from them.
    private var rowsChanged = false
    /// The row of the member that noted last, and its index in ``rows`` (-1: none).
    private var recent = Row(member: 0, seq: 0, used: 0)
    private var recentIndex = -1
    private var last = Acknowledgements()

    public init() {}

    /// Notes that the session applied `member`'s input numbered `seq`.
    public mutating func note(seq: UInt64, member: Int) {
        clock &+= 1
        changed = true
        if recentIndex >= 0 && recent.member == member {
            recent.seq = seq
            recent.used = clock
            return
        }
        settle()
        rowsChanged = true
        var low = 0
        var high = rows.count
        while low < high {
            // (Both within the table's `capacity`: a sum that cannot overflow, halved by a shift; `/ 2` checked
            // for overflow and rounded a possibly negative sum towards zero.)
            let middle = (low &+ high) &>> 1
            if rows[middle].member < member { low = middle &+ 1 } else { high = middle }
        }
        defer { (recent, recentIndex) = (rows[low], low) }
        if low < rows.count && rows[low].member == member {
            rows[low].seq = seq
            rows[low].used = clock
            return
        }
        if rows.count >= Self.capacity {
            var oldest = 0
            for index in rows.indices where rows[index].used < rows[oldest].used { oldest = index }
            rows.remove(at: oldest)
            if oldest < low { low -= 1 }
        }
        rows.insert(Row(member: member, seq: seq, used: clock), at: low)
    }

    /// Writes the recent member's row back into ``rows``.
    private mutating func settle() {
        guard recentIndex >= 0 else { return }
        rows[recentIndex] = recent
        recentIndex = -1
    }

    /// The rows with the recent member's row in its place.
    private var settledRows: [Row] {
        var copy = self
        copy.settle()
        return copy.rows
    }

    /// The `seq` acknowledged for `member`, if it has an entry.
    public func seq(of member: Int) -> UInt64? {
        if recentIndex >= 0 && recent.member == member { return recent.seq }
        return rows.first { $0.member == member }?.seq
    }

    /// How many members have an entry.
    public var count: Int { rows.count }

    /// The map as a frame carries it: the previous value again when nothing changed since.
    public mutating func snapshot() -> Acknowledgements {
        guard changed else { return last }
        changed = false
        if rowsChanged {
            rowsChanged = false
            rows.withUnsafeBufferPointer { last.replaceAll(with: $0) }
        }
        if recentIndex >= 0 { last.setSeq(recent.seq, at: recentIndex) }
        return last
    }

    // The form the synthesized conformance wrote (the rows settled): a snapshot's bytes do not change.

    private enum CodingKeys: String, CodingKey {
        case rows, clock, changed, last
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(settledRows, forKey: .rows)
        try container.encode(clock, forKey: .clock)
        try container.encode(changed, forKey: .changed)
        try container.encode(last, forKey: .last)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rows = try container.decode([Row].self, forKey: .rows)
        clock = try container.decode(UInt64.self, forKey: .clock)
        changed = try container.decode(Bool.self, forKey: .changed)
        last = try container.decode(Acknowledgements.self, forKey: .last)
        rowsChanged = true  // `last` may be older than the rows: made again at the next change
    }
}
