import RefreshKit

/// What a `delta` must carry for one entry of `edges` (PROTOCOL.md, "delta"): the members whose written
/// text differs, except `distance` and `velocity`, which are carried only when they did not **follow the
/// scroll** (see ``follows(from:to:scroll:)``).
struct EdgeChanges: OptionSet {
    let rawValue: UInt32

    static let state = EdgeChanges(rawValue: 1 << 0)
    /// `distance` must be written: it did not follow the offset.
    static let distance = EdgeChanges(rawValue: 1 << 1)
    static let progress = EdgeChanges(rawValue: 1 << 2)
    /// `velocity` must be written: it is not the frame's velocity seen from the edge.
    static let velocity = EdgeChanges(rawValue: 1 << 3)
    static let controlX = EdgeChanges(rawValue: 1 << 4)
    static let controlY = EdgeChanges(rawValue: 1 << 5)
    static let controlWidth = EdgeChanges(rawValue: 1 << 6)
    static let controlHeight = EdgeChanges(rawValue: 1 << 7)
    static let viewX = EdgeChanges(rawValue: 1 << 8)
    static let viewY = EdgeChanges(rawValue: 1 << 9)
    static let viewWidth = EdgeChanges(rawValue: 1 << 10)
    static let viewHeight = EdgeChanges(rawValue: 1 << 11)
    static let scale = EdgeChanges(rawValue: 1 << 12)
    /// The cycle ended (`"cycle":null`).
    static let cycleRemoved = EdgeChanges(rawValue: 1 << 13)
    /// A cycle began where there was none: written whole.
    static let cycleAdded = EdgeChanges(rawValue: 1 << 14)
    static let cycleIndex = EdgeChanges(rawValue: 1 << 15)
    static let cycleStart = EdgeChanges(rawValue: 1 << 16)
    static let cycleDuration = EdgeChanges(rawValue: 1 << 17)
    static let cycleDelay = EdgeChanges(rawValue: 1 << 18)
    static let cycleKind = EdgeChanges(rawValue: 1 << 19)
    static let exitRemoved = EdgeChanges(rawValue: 1 << 20)
    static let exitAdded = EdgeChanges(rawValue: 1 << 21)
    static let exitStart = EdgeChanges(rawValue: 1 << 22)
    static let exitDuration = EdgeChanges(rawValue: 1 << 23)

    static let control: EdgeChanges = [.controlX, .controlY, .controlWidth, .controlHeight]
    static let view: EdgeChanges = [.viewX, .viewY, .viewWidth, .viewHeight]
    static let cyclePatch: EdgeChanges = [.cycleIndex, .cycleStart, .cycleDuration, .cycleDelay, .cycleKind]
    static let exitPatch: EdgeChanges = [.exitStart, .exitDuration]

    init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The changes of one edge entry from `base` to `edge` (the same edge), in a frame that scrolled by
    /// `scroll` along the edge's axis.
    ///
    /// The entries are read through pointers, field by field, where they lie in the frames' arrays: copying each
    /// whole entry out cost as much as comparing them (docs/PERFORMANCE.md, "No copies per input").
    @inline(__always)
    init(from base: UnsafePointer<EdgeFrame>, to edge: UnsafePointer<EdgeFrame>, scroll: FollowedScroll) {
        typealias W = WrittenNumber
        var c: EdgeChanges = []
        let follow = Self.follows(from: base, to: edge, scroll: scroll)
        if !follow.distance { c.insert(.distance) }
        if !follow.velocity { c.insert(.velocity) }
        if Self.othersAreIdentical(base, edge) {
            self = c
            return
        }
        if base.pointee.state != edge.pointee.state { c.insert(.state) }
        if !W.same(base.pointee.progress, edge.pointee.progress, .fraction) { c.insert(.progress) }
        if !W.same(base.pointee.control.origin.x, edge.pointee.control.origin.x, .length) { c.insert(.controlX) }
        if !W.same(base.pointee.control.origin.y, edge.pointee.control.origin.y, .length) { c.insert(.controlY) }
        if !W.same(base.pointee.control.size.width, edge.pointee.control.size.width, .length) {
            c.insert(.controlWidth)
        }
        if !W.same(base.pointee.control.size.height, edge.pointee.control.size.height, .length) {
            c.insert(.controlHeight)
        }
        if !W.same(base.pointee.view.origin.x, edge.pointee.view.origin.x, .length) { c.insert(.viewX) }
        if !W.same(base.pointee.view.origin.y, edge.pointee.view.origin.y, .length) { c.insert(.viewY) }
        if !W.same(base.pointee.view.size.width, edge.pointee.view.size.width, .length) { c.insert(.viewWidth) }
        if !W.same(base.pointee.view.size.height, edge.pointee.view.size.height, .length) { c.insert(.viewHeight) }
        if !W.same(base.pointee.scale, edge.pointee.scale, .fraction) { c.insert(.scale) }
        switch (base.pointee.cycle, edge.pointee.cycle) {
        case (nil, nil): break
        case (_?, nil): c.insert(.cycleRemoved)
        case (nil, _?): c.insert(.cycleAdded)
        case (let b?, let e?):
            if b.index != e.index { c.insert(.cycleIndex) }
            if b.start != e.start { c.insert(.cycleStart) }
            if !W.same(b.duration, e.duration, .duration) { c.insert(.cycleDuration) }
            if !W.same(b.delay, e.delay, .duration) { c.insert(.cycleDelay) }
            if b.kind != e.kind { c.insert(.cycleKind) }
        }
        switch (base.pointee.exit, edge.pointee.exit) {
        case (nil, nil): break
        case (_?, nil): c.insert(.exitRemoved)
        case (nil, _?): c.insert(.exitAdded)
        case (let b?, let e?):
            if b.start != e.start { c.insert(.exitStart) }
            if !W.same(b.duration, e.duration, .duration) { c.insert(.exitDuration) }
        }
        self = c
    }

    /// Whether every member but `distance` and `velocity` holds the same bits in both entries: the usual case
    /// (while the content scrolls, only those two change), settled in one pass without a branch per member
    /// instead of a rounded comparison per member. Equal bits are written alike; anything else (even `0` and
    /// `-0`) goes through the member-by-member comparison.
    @inline(__always)
    static func othersAreIdentical(_ base: UnsafePointer<EdgeFrame>, _ edge: UnsafePointer<EdgeFrame>) -> Bool {
        let (a, b) = (base.pointee, edge.pointee)  // plain values: read in place, not copied
        var bits = a.progress.bitPattern ^ b.progress.bitPattern
        bits |= a.control.origin.x.bitPattern ^ b.control.origin.x.bitPattern
        bits |= a.control.origin.y.bitPattern ^ b.control.origin.y.bitPattern
        bits |= a.control.size.width.bitPattern ^ b.control.size.width.bitPattern
        bits |= a.control.size.height.bitPattern ^ b.control.size.height.bitPattern
        bits |= a.view.origin.x.bitPattern ^ b.view.origin.x.bitPattern
        bits |= a.view.origin.y.bitPattern ^ b.view.origin.y.bitPattern
        bits |= a.view.size.width.bitPattern ^ b.view.size.width.bitPattern
        bits |= a.view.size.height.bitPattern ^ b.view.size.height.bitPattern
        bits |= a.scale.bitPattern ^ b.scale.bitPattern
        return bits == 0 && a.state == b.state && a.cycle == b.cycle && a.exit == b.exit
    }

    /// The follow rule (PROTOCOL.md, "delta"). An edge's `distance` and `velocity` are the scroll position
    /// and velocity seen from that edge, so while the content scrolls they change in every frame, for every
    /// edge, by exactly what `offset` and `velocity` already say. A delta leaves them out when the page can
    /// work them out, exactly, from the frame it builds:
    /// - `distance` follows when, in written units (1/1000 px), `distance = base.distance − Δoffset` for a
    ///   leading edge (top, left) and `base.distance + Δoffset` for a trailing one (bottom, right), where
    ///   `Δoffset` is the change of the offset along the edge's axis;
    /// - `velocity` follows when it is the frame's velocity along the axis, negated for a leading edge.
    ///
    /// Every value involved must be within ``WrittenNumber/followLimit`` so that the page's arithmetic in
    /// `Double`s is exact; otherwise the value is written.
    ///
    /// `scroll` is the frame's scroll along the edge's axis.
    @inline(__always)
    static func follows(from base: UnsafePointer<EdgeFrame>, to edge: UnsafePointer<EdgeFrame>, scroll: FollowedScroll)
        -> (distance: Bool, velocity: Bool)
    {
        typealias W = WrittenNumber
        let leading = edge.pointee.edge == .top || edge.pointee.edge == .left
        var distance = false
        let change = scroll.offsetChange
        if change != W.notScaled {
            // A leading edge at rest position 0 (no inset before it) is the offset negated, to the bit, in both
            // frames: written negated, its distance is `−offset`, which is `base.distance − Δoffset`, so it
            // follows without a conversion of its own (the offsets are followable, so it is).
            if leading, edge.pointee.distance == -scroll.offsetValue, base.pointee.distance == -scroll.baseOffsetValue {
                distance = true
            } else if let was = W.followable(base.pointee.distance), let now = W.followable(edge.pointee.distance) {
                distance = now == (leading ? was - change : was + change)
            }
        }
        var follows = false
        if scroll.velocityFollows {
            // Usually the edge's velocity is the frame's to the bit (negated for a leading edge). Equal values
            // are written alike and a negated value is written negated (the rounding is symmetric), so then it
            // follows without a conversion of its own.
            let speed = leading ? -scroll.velocityValue : scroll.velocityValue
            follows = edge.pointee.velocity == speed || isWritten(edge.pointee.velocity, as: speed)
        }
        return (distance, follows)
    }

    /// Whether `velocity` is written as `speed` (a followable velocity): the follow rule's case that is not the
    /// usual one, out of line so that the rule itself stays small enough to be inlined where every edge of
    /// every delta is compared (inlined too, its conversions made the compiler call the whole rule instead).
    @inline(never)
    private static func isWritten(_ velocity: Double, as speed: Double) -> Bool {
        WrittenNumber.scaled(velocity, .velocity) == WrittenNumber.scaled(speed, .velocity)
    }

    /// The edge's bit in a set of edges.
    static func index(_ edge: Edge) -> Int {
        switch edge {
        case .top: 0
        case .bottom: 1
        case .left: 2
        case .right: 3
        }
    }
}
