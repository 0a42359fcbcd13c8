/// A frame's `ack` map (PROTOCOL.md, "Prediction and acknowledgement"): for each member of the session that
/// sent an input with a `seq`, the `seq` of the last such input the session applied before the frame was
/// made. Ordered by member number, at most ``AcknowledgementTable/capacity`` entries.
///
/// A value every frame carries (``SharedFrame/acknowledgements``), so it must cost nothing to copy and make:
/// up to four entries are stored inline (a session rarely has more than two devices that send `seq`), the
/// rest in an array, which only a session with more such members ever allocates. Without one, the array is
/// `nil`, not empty: a copy retains, and a frame's end releases, the empty array, for every frame, where nil
/// costs a test (docs/PERFORMANCE.md, "No copies per input").
public struct Acknowledgements: Hashable, Sendable, Codable {
    /// One member's acknowledgement.
    public struct Entry: Hashable, Sendable, Codable {
        /// The member number (`welcome.member`).
        public var member: Int
        /// The `seq` of the member's last input the session applied.
        public var seq: UInt64

        public init(member: Int, seq: UInt64) {
            self.member = member
            self.seq = seq
        }
    }

    /// How many members have an entry.
    public private(set) var count = 0
    private var inline0 = Entry(member: 0, seq: 0)
    private var inline1 = Entry(member: 0, seq: 0)
    private var inline2 = Entry(member: 0, seq: 0)
    private var inline3 = Entry(member: 0, seq: 0)
    /// Entries 4 and later; nil when there never were any.
    private var spill: [Entry]?

    private static let inlineCount = 4

    /// No entry: a frame of a session where no member has sent a `seq` yet (it carries no `ack`).
    public init() {}

    /// `entries`, which must be ordered by member number, each member at most once.
    public init(_ entries: some Sequence<Entry>) {
        for entry in entries { append(entry) }
    }

    public var isEmpty: Bool { count == 0 }

    /// The `index`th entry (`0..<count`), in member order.
    @inline(__always)
    public subscript(index: Int) -> Entry {
        precondition(index >= 0 && index < count, "an acknowledgement index in range")
        switch index {
        case 0: return inline0
        case 1: return inline1
        case 2: return inline2
        case 3: return inline3
        default: return spill![index - Self.inlineCount]
        }
    }

    /// Every entry, in member order.
    public var entries: [Entry] { (0..<count).map { self[$0] } }

    /// The `seq` acknowledged for `member`, if it has an entry.
    public func seq(of member: Int) -> UInt64? {
        for index in 0..<count where self[index].member == member { return self[index].seq }
        return nil
    }

    /// Appends `entry` after the last one (its member must be greater than every member here).
    mutating func append(_ entry: Entry) {
        assert(count == 0 || self[count - 1].member < entry.member, "acknowledgements in member order")
        switch count {
        case 0: inline0 = entry
        case 1: inline1 = entry
        case 2: inline2 = entry
        case 3: inline3 = entry
        default:
            if spill == nil { spill = [entry] } else { spill!.append(entry) }
        }
        count += 1
    }

    /// Makes its entries `rows`' (ordered by member), as ``removeAll()`` then an ``append(_:)`` apiece would:
    /// the inline entries stored directly, where each `append` jumped on the count; the entries past the count
    /// are left as they were, as `removeAll` left them.
    @inline(__always)
    mutating func replaceAll(with rows: UnsafeBufferPointer<AcknowledgementTable.Row>) {
        count = rows.count
        if rows.count > 0 { inline0 = Entry(member: rows[0].member, seq: rows[0].seq) }
        if rows.count > 1 { inline1 = Entry(member: rows[1].member, seq: rows[1].seq) }
        if rows.count > 2 { inline2 = Entry(member: rows[2].member, seq: rows[2].seq) }
        if rows.count > 3 { inline3 = Entry(member: rows[3].member, seq: rows[3].seq) }
        // Nil or empty, there is nothing to empty (emptying an empty array would make, and free, a buffer).
        if spill?.isEmpty == false { spill!.removeAll(keepingCapacity: true) }
        guard rows.count > Self.inlineCount else { return }
        if spill == nil { spill = [] }
        for row in rows[Self.inlineCount...] { spill!.append(Entry(member: row.member, seq: row.seq)) }
    }

    /// Sets entry `index`'s `seq` (`0..<count`).
    @inline(__always)
    mutating func setSeq(_ seq: UInt64, at index: Int) {
        switch index {
        case 0: inline0.seq = seq
        case 1: inline1.seq = seq
        case 2: inline2.seq = seq
        case 3: inline3.seq = seq
        default: spill![index - Self.inlineCount].seq = seq
        }
    }

    /// Empties it, keeping the spill's memory when it is not shared.
    mutating func removeAll() {
        count = 0
        // Nil or empty, there is nothing to empty (emptying an empty array would make, and free, a buffer).
        if spill?.isEmpty == false { spill!.removeAll(keepingCapacity: true) }
    }

    /// Whether both maps have entries for the same members (their `seq`s may differ).
    @inline(__always)
    func hasSameMembers(as other: borrowing Acknowledgements) -> Bool {
        guard count == other.count else { return false }
        for index in 0..<count where self[index].member != other[index].member { return false }
        return true
    }

    /// Which entries' `seq`s differ from `base`'s (bit `i` for entry `i`) when both maps have the same members
    /// and at most four entries, those stored inline (the usual case); nil otherwise. It reads the stored
    /// entries themselves: through the subscript, each read was a jump on its index.
    @inline(__always)
    func changedSeqs(from base: borrowing Acknowledgements) -> UInt8? {
        guard count == base.count, count <= Self.inlineCount else { return nil }
        var members = 0
        var changed: UInt8 = 0
        @inline(__always)
        func compare(_ index: Int, _ new: Entry, _ old: Entry) {
            guard index < count else { return }
            members |= new.member ^ old.member
            if new.seq != old.seq { changed |= 1 << index }
        }
        compare(0, inline0, base.inline0)
        compare(1, inline1, base.inline1)
        compare(2, inline2, base.inline2)
        compare(3, inline3, base.inline3)
        return members == 0 ? changed : nil
    }

    public static func == (a: Acknowledgements, b: Acknowledgements) -> Bool {
        guard a.count == b.count else { return false }
        for index in 0..<a.count where a[index] != b[index] { return false }
        return true
    }

    private enum CodingKeys: String, CodingKey {
        case count, inline0, inline1, inline2, inline3, spill
    }

    /// The synthesized form, the spill an array (empty when nil): a snapshot's bytes do not change.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(inline0, forKey: .inline0)
        try container.encode(inline1, forKey: .inline1)
        try container.encode(inline2, forKey: .inline2)
        try container.encode(inline3, forKey: .inline3)
        try container.encode(spill ?? [], forKey: .spill)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
        inline0 = try container.decode(Entry.self, forKey: .inline0)
        inline1 = try container.decode(Entry.self, forKey: .inline1)
        inline2 = try container.decode(Entry.self, forKey: .inline2)
        inline3 = try container.decode(Entry.self, forKey: .inline3)
        let spill = try container.decode([Entry].self, forKey: .spill)
        self.spill = spill.isEmpty ? nil : spill
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count { hasher.combine(self[index]) }
    }
}
