import RefreshKit

/// What a `delta` must carry to turn one frame into the next (PROTOCOL.md, "delta"): the frame-level
/// members whose written text differs. Computed before anything is written, so the delta opens an object
/// only when it has a member to put in it.
struct FrameChanges: OptionSet {
    let rawValue: UInt32

    static let offsetX = FrameChanges(rawValue: 1 << 0)
    static let offsetY = FrameChanges(rawValue: 1 << 1)
    static let velocityX = FrameChanges(rawValue: 1 << 2)
    static let velocityY = FrameChanges(rawValue: 1 << 3)
    static let phase = FrameChanges(rawValue: 1 << 4)
    /// The horizontal motion chain is written differently (or appeared, or ended).
    static let segmentX = FrameChanges(rawValue: 1 << 5)
    static let segmentY = FrameChanges(rawValue: 1 << 6)
    static let contentWidth = FrameChanges(rawValue: 1 << 7)
    static let contentHeight = FrameChanges(rawValue: 1 << 8)
    static let viewportWidth = FrameChanges(rawValue: 1 << 9)
    static let viewportHeight = FrameChanges(rawValue: 1 << 10)
    static let insetTop = FrameChanges(rawValue: 1 << 11)
    static let insetLeft = FrameChanges(rawValue: 1 << 12)
    static let insetBottom = FrameChanges(rawValue: 1 << 13)
    static let insetRight = FrameChanges(rawValue: 1 << 14)
    /// The edge set changed (other edges, another order): `edges` is written whole, as an array.
    static let edgesReplaced = FrameChanges(rawValue: 1 << 15)
    static let feedCount = FrameChanges(rawValue: 1 << 16)
    static let feedHasMore = FrameChanges(rawValue: 1 << 17)
    static let feedLoading = FrameChanges(rawValue: 1 << 18)
    static let feedRowHeight = FrameChanges(rawValue: 1 << 20)
    /// The pinned header's section (or the header came, or went: then both bits, ``pinned``).
    static let pinnedSection = FrameChanges(rawValue: 1 << 21)
    static let pinnedY = FrameChanges(rawValue: 1 << 22)

    static let offset: FrameChanges = [.offsetX, .offsetY]
    static let velocity: FrameChanges = [.velocityX, .velocityY]
    static let segment: FrameChanges = [.segmentX, .segmentY]
    static let contentSize: FrameChanges = [.contentWidth, .contentHeight]
    static let viewport: FrameChanges = [.viewportWidth, .viewportHeight]
    static let insets: FrameChanges = [.insetTop, .insetLeft, .insetBottom, .insetRight]
    static let feed: FrameChanges = [.feedCount, .feedHasMore, .feedLoading, .feedRowHeight]
    static let pinned: FrameChanges = [.pinnedSection, .pinnedY]

    /// The frame-level changes from `base` to `frame`, whose offsets and velocities `scroll` compared. Edges
    /// are only checked for being the same set in the same order (each entry's own changes are ``EdgeChanges``).
    ///
    /// Both frames are borrowed: an initializer takes its arguments as its own, which would copy (retain) and
    /// then destroy (release) every array of both frames on every delta.
    init(from base: borrowing Frame, to frame: borrowing Frame, scroll: borrowing FrameScroll) {
        var c: FrameChanges = []
        typealias W = WrittenNumber
        if scroll.horizontal.offsetChanged { c.insert(.offsetX) }
        if scroll.vertical.offsetChanged { c.insert(.offsetY) }
        if scroll.horizontal.velocityChanged { c.insert(.velocityX) }
        if scroll.vertical.velocityChanged { c.insert(.velocityY) }
        if base.phase != frame.phase { c.insert(.phase) }
        if !W.same(base.horizontalMotion, frame.horizontalMotion) { c.insert(.segmentX) }
        if !W.same(base.verticalMotion, frame.verticalMotion) { c.insert(.segmentY) }
        if !Self.patchable(base.edges, frame.edges) { c.insert(.edgesReplaced) }
        if !Self.layoutIsIdentical(base, frame) { c.formUnion(Self.layoutChanges(from: base, to: frame)) }
        if base.hasPinned || frame.hasPinned { c.formUnion(Self.pinnedChanges(from: base, to: frame)) }
        self = c
    }

    /// The pinned header's changes: both bits when it came or went (the delta writes it whole, or `null`).
    @inline(never)
    private static func pinnedChanges(from base: borrowing Frame, to frame: borrowing Frame) -> FrameChanges {
        guard let old = base.pinned, let new = frame.pinned else { return .pinned }
        var c: FrameChanges = []
        if old.section != new.section { c.insert(.pinnedSection) }
        if !WrittenNumber.same(old.y, new.y, .length) { c.insert(.pinnedY) }
        return c
    }

    /// Whether the members that change least often (sizes, insets, the feed) hold the same bits in both
    /// frames: one pass without a branch per member settles what is usually so, instead of a rounded
    /// comparison of each.
    @inline(__always)
    private static func layoutIsIdentical(_ base: borrowing Frame, _ frame: borrowing Frame) -> Bool {
        var bits = base.contentSize.width.bitPattern ^ frame.contentSize.width.bitPattern
        bits |= base.contentSize.height.bitPattern ^ frame.contentSize.height.bitPattern
        bits |= base.viewport.width.bitPattern ^ frame.viewport.width.bitPattern
        bits |= base.viewport.height.bitPattern ^ frame.viewport.height.bitPattern
        bits |= base.insets.top.bitPattern ^ frame.insets.top.bitPattern
        bits |= base.insets.left.bitPattern ^ frame.insets.left.bitPattern
        bits |= base.insets.bottom.bitPattern ^ frame.insets.bottom.bitPattern
        bits |= base.insets.right.bitPattern ^ frame.insets.right.bitPattern
        bits |= base.feed.rowHeight.bitPattern ^ frame.feed.rowHeight.bitPattern
        bits |= UInt64(bitPattern: Int64(base.feed.count ^ frame.feed.count))
        return bits == 0 && base.feed.hasMore == frame.feed.hasMore && base.feed.loading == frame.feed.loading
    }

    /// The changes among the members ``layoutIsIdentical(_:_:)`` looks at, compared as they are written.
    private static func layoutChanges(from base: borrowing Frame, to frame: borrowing Frame) -> FrameChanges {
        typealias W = WrittenNumber
        var c: FrameChanges = []
        if !W.same(base.contentSize.width, frame.contentSize.width, .length) { c.insert(.contentWidth) }
        if !W.same(base.contentSize.height, frame.contentSize.height, .length) { c.insert(.contentHeight) }
        if !W.same(base.viewport.width, frame.viewport.width, .length) { c.insert(.viewportWidth) }
        if !W.same(base.viewport.height, frame.viewport.height, .length) { c.insert(.viewportHeight) }
        if !W.same(base.insets.top, frame.insets.top, .length) { c.insert(.insetTop) }
        if !W.same(base.insets.left, frame.insets.left, .length) { c.insert(.insetLeft) }
        if !W.same(base.insets.bottom, frame.insets.bottom, .length) { c.insert(.insetBottom) }
        if !W.same(base.insets.right, frame.insets.right, .length) { c.insert(.insetRight) }
        if base.feed.count != frame.feed.count { c.insert(.feedCount) }
        if base.feed.hasMore != frame.feed.hasMore { c.insert(.feedHasMore) }
        if base.feed.loading != frame.feed.loading { c.insert(.feedLoading) }
        if !W.same(base.feed.rowHeight, frame.feed.rowHeight, .length) { c.insert(.feedRowHeight) }
        return c
    }

    init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Whether `edges` can be patched entry by entry, keyed by edge name: the same edges in the same order,
    /// each at most once (so a name says which entry it patches).
    ///
    /// The entries' edges are gathered without a branch per entry: their differences, and their bits, as many
    /// as there are entries when each is there once (a test and an exit per entry, out of line, cost more on
    /// every delta: docs/PERFORMANCE.md, "The delta encoder").
    @inline(__always)
    static func patchable(_ base: [EdgeFrame], _ edges: [EdgeFrame]) -> Bool {
        guard base.count == edges.count, edges.count <= 4 else { return false }  // four edges at most
        // Through buffer pointers, reading only `edge`: an array's subscript or `zip` would copy every entry out.
        return base.withUnsafeBufferPointer { bases in
            edges.withUnsafeBufferPointer { edges in
                var differences = 0
                var seen: UInt8 = 0
                for i in 0..<edges.count {
                    let index = EdgeChanges.index(edges[i].edge)
                    differences |= index ^ EdgeChanges.index(bases[i].edge)
                    seen |= 1 &<< UInt8(truncatingIfNeeded: index)
                }
                return differences == 0 && seen.nonzeroBitCount == edges.count
            }
        }
    }
}
