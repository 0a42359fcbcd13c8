/// What one anchoring scenario measured: how far the first visible row moved on screen from frame to frame,
/// against where the fling alone put it (docs/PERFORMANCE.md, "Rows: anchoring").
public struct AnchorFigures: Hashable, Sendable {
    /// The most the first visible row may move, px: the target of `make bench`.
    public static let targetPx = 0.5

    /// One change made during the fling.
    public struct Change: Hashable, Sendable {
        /// The fling's frame after which the change reached the engine (frame 0: the finger lifts).
        public var frame: Int
        /// The rows it inserted or measured again.
        public var rows: Int
        /// How much the rows above the first visible row grew, px, by the page's account: the heights it sent
        /// minus those the engine had (a new row counts at the estimate).
        public var grownPx: Double
        /// What the engine added to the content offset, px (anchoring: as much as the rows above grew).
        public var correctionPx: Double
        /// The fling's velocity just before the change and just after it, px/s (the same, when anchoring
        /// leaves the fling alone).
        public var velocityBefore: Double
        public var velocityAfter: Double
        /// How far the first visible row moved on screen across it, beyond the fling's own motion, px.
        public var errorPx: Double
    }

    /// The case measured.
    public var kind: AnchorCase
    /// The changes, in order.
    public var changes: [Change]
    /// The anchoring error: the most the first visible row moved on screen between two consecutive frames,
    /// beyond what the same fling without the changes moved it, px (every frame of the fling counts).
    public var maxErrorPx: Double
    /// The most the first visible row was, at any frame, from where the fling without the changes put it, px:
    /// the errors added up, the fling's end included.
    public var maxDriftPx: Double
    /// The content offset when the finger lifted, px.
    public var liftOffsetPx: Double
    /// Frames from the finger's lift until the fling (and its twin) came to rest.
    public var frames: Int
    /// Rows the engine held when the fling ended.
    public var heldRows: Int
    /// Rows the page measured as they came near the viewport during the fling (below the first visible row;
    /// the twin's page measured the same).
    public var rowsMeasuredInView: Int

    /// Whether the anchoring error is within ``targetPx``.
    public var holds: Bool { maxErrorPx <= Self.targetPx }
}
