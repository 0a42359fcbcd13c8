/// The sample rings of a finger's two ``VelocityTracker``s, one per axis, kept slot by slot side by side: slot `n` of
/// the horizontal ring and slot `n` of the vertical one lie side by side, and the two rings' cursors and limits lie
/// together in front of them. A move records a sample on both axes, and so writes the two axes' slots and cursors
/// where they lie together, not in two trackers' places apart (docs/PERFORMANCE.md, "Cold lines").
///
/// Each axis keeps its own cursor, so each ring is exactly the one its tracker would hold, stale slots included
/// (a non-finite position is recorded on one axis only, ``FingerVelocity``): ``tracker(_:)`` hands it out.
struct PairedSampleRings: Sendable {
    typealias Sample = VelocityTracker.Sample
    typealias RingCursor = VelocityTracker.RingCursor

    /// Slot `n` of both rings.
    private struct Slot {
        var horizontal: Sample
        var vertical: Sample
    }

    private typealias Slots = (
        Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot,
        Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot
    )
    private static let empty = Slot(horizontal: Sample(time: 0, position: 0), vertical: Sample(time: 0, position: 0))

    private var horizontalCursor = RingCursor()
    private var verticalCursor = RingCursor()
    /// Each axis's ``VelocityTracker/minVelocity`` and ``VelocityTracker/maxVelocity``.
    private var horizontalLimits: (minimum: Double, maximum: Double)
    private var verticalLimits: (minimum: Double, maximum: Double)
    private var slots: Slots = (
        empty, empty, empty, empty, empty, empty, empty, empty, empty, empty,
        empty, empty, empty, empty, empty, empty, empty, empty, empty, empty
    )

    /// Two empty trackers' rings.
    init() {
        self.init(horizontal: VelocityTracker(), vertical: VelocityTracker())
    }

    /// The rings of `horizontal` and `vertical`, slot for slot.
    init(horizontal: VelocityTracker, vertical: VelocityTracker) {
        assert(MemoryLayout<Slots>.size == RingCursor.capacity * MemoryLayout<Slot>.stride, "one slot per sample kept")
        horizontalLimits = (horizontal.minVelocity, horizontal.maxVelocity)
        verticalLimits = (vertical.minVelocity, vertical.maxVelocity)
        set(horizontal, .horizontal)
        set(vertical, .vertical)
    }

    /// The tracker of `axis`: its ring, with its cursor, and its limits.
    func tracker(_ axis: Axis) -> VelocityTracker {
        let (cursor, limits) =
            axis == .horizontal ? (horizontalCursor, horizontalLimits) : (verticalCursor, verticalLimits)
        var copy = self
        let history = VelocityTracker.History(cursor: cursor) { slot in
            copy.withBytes(axis) { $0.load(fromByteOffset: slot * MemoryLayout<Slot>.stride, as: Sample.self) }
        }
        return VelocityTracker(history: history, minVelocity: limits.minimum, maxVelocity: limits.maximum)
    }

    /// Puts `tracker`'s ring, cursor and limits on `axis`.
    private mutating func set(_ tracker: VelocityTracker, _ axis: Axis) {
        let history = tracker.history
        if axis == .horizontal {
            (horizontalCursor, horizontalLimits) = (history.cursor, (tracker.minVelocity, tracker.maxVelocity))
        } else {
            (verticalCursor, verticalLimits) = (history.cursor, (tracker.minVelocity, tracker.maxVelocity))
        }
        for slot in 0..<RingCursor.capacity { store(history.sample(at: slot), at: slot, axis) }
    }

    /// ``VelocityTracker/add(position:time:)`` on `axis`'s tracker: for a finger whose axes went apart (a
    /// non-finite position), which steady moves never see.
    mutating func add(position: Double, time: Double, _ axis: Axis) {
        var axisTracker = tracker(axis)
        axisTracker.add(position: position, time: time)
        set(axisTracker, axis)
    }

    /// ``VelocityTracker/append(_:)`` on both trackers.
    @inline(__always)
    mutating func append(horizontal: Sample, vertical: Sample) {
        store(horizontal, at: horizontalCursor.append(), .horizontal)
        store(vertical, at: verticalCursor.append(), .vertical)
    }

    /// ``VelocityTracker/replaceNewest(with:)`` on both trackers.
    @inline(__always)
    mutating func replaceNewest(horizontal: Sample, vertical: Sample) {
        store(horizontal, at: horizontalCursor.newestSlot, .horizontal)
        store(vertical, at: verticalCursor.newestSlot, .vertical)
    }

    /// ``VelocityTracker/reset()`` on both trackers.
    mutating func reset() {
        horizontalCursor.removeAll()
        verticalCursor.removeAll()
    }

    /// ``VelocityTracker/releaseVelocity(atLift:)`` of `axis`'s tracker, read where its ring lies.
    mutating func releaseVelocity(atLift liftTime: Double, _ axis: Axis) -> Double {
        let cursor = axis == .horizontal ? horizontalCursor : verticalCursor
        let found = withBytes(axis) {
            VelocityTracker.estimate(
                VelocityTracker.Window(
                    base: $0, oldest: cursor.oldest, count: cursor.count, stride: MemoryLayout<Slot>.stride),
                atLift: liftTime)
        }
        return clamped(found, axis)
    }

    /// ``VelocityTracker/clamped(_:)`` with `axis`'s limits.
    @inline(__always)
    func clamped(_ found: Double?, _ axis: Axis) -> Double {
        let limits = axis == .horizontal ? horizontalLimits : verticalLimits
        return VelocityTracker.clamped(found, minVelocity: limits.minimum, maxVelocity: limits.maximum)
    }

    /// Lends `body` the address of `axis`'s sample in slot 0; the next slot's is ``Slot``'s stride further.
    /// `mutating` (it changes nothing) so that the slots are read where they lie, not copied.
    private mutating func withBytes<Result>(_ axis: Axis, _ body: (UnsafeRawPointer) -> Result) -> Result {
        let offset = axis == .horizontal ? 0 : MemoryLayout<Sample>.stride
        return withUnsafeBytes(of: &slots) { body($0.baseAddress! + offset) }
    }

    @inline(__always)
    private mutating func store(_ sample: Sample, at slot: Int, _ axis: Axis) {
        let offset = slot * MemoryLayout<Slot>.stride + (axis == .horizontal ? 0 : MemoryLayout<Sample>.stride)
        withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: sample, toByteOffset: offset, as: Sample.self) }
    }
}

// Equal when both axes' trackers are (their samples and limits, not where in the rings the samples lie).
extension PairedSampleRings: Hashable {
    static func == (a: Self, b: Self) -> Bool {
        a.tracker(.horizontal) == b.tracker(.horizontal) && a.tracker(.vertical) == b.tracker(.vertical)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(tracker(.horizontal))
        hasher.combine(tracker(.vertical))
    }
}
