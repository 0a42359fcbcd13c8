/// How far ahead an external feed's window of pages loads, and how many rows it holds (docs/LAYOUT.md, "The
/// window's size"): both derived from the page size, the rows' estimate and the viewport's height, in rows at
/// the estimate, not a count of pages fixed beforehand.
///
/// - **The prefetch distance** (px): placeholders this near the viewport are loaded back, and a page is dropped
///   only when it lies farther than this outside the viewport (so it is not asked for again at once). It is
///   half of what a page is taller than a screen, `(pageHeight − viewportHeight) / 2`: then the viewport and a
///   prefetch distance on each side are one page tall, and two pages always hold them, wherever the viewport
///   lies. Never less than ``minimumPrefetchScreens`` of a screen, never more than ``maximumPrefetchScreens``.
/// - **The rows held** (``heldRows``, the layout's ``RowLayout/maxHeldRows``): the fewest whole pages that hold
///   the viewport and a prefetch distance each way wherever it lies: a span of `s` px meets at most
///   `1 + ⌈s / pageHeight⌉` pages of `pageHeight` px; two pages at least. Paging 3 asks for
///   `maxSize ≥ pageSize + 2 × prefetchDistance`; this bound is that and the viewport's rows besides.
///
/// Pages of 20 rows of 72 px on a phone (844 px): a prefetch of 298 px (4 rows), 40 rows held. Pages of 50:
/// a prefetch of one screen, 100 rows held.
/// The last ``WindowSize`` worked out, with what it was worked out from: every observation asks for the size,
/// and the viewport, page size and estimate rarely change (docs/PERFORMANCE.md, "No copies per input").
struct WindowSizes: Sendable {
    private var last: (viewportHeight: Double, pageSize: Int, estimatedHeight: Double, size: WindowSize)?

    /// The window for pages of `pageSize` rows of `estimatedHeight` px through a viewport `viewportHeight` px tall.
    @inline(__always)
    mutating func size(pageSize: Int, estimatedHeight: Double, viewportHeight: Double) -> WindowSize {
        if let last, last.viewportHeight == viewportHeight, last.pageSize == pageSize,
            last.estimatedHeight == estimatedHeight
        {
            return last.size
        }
        let size = WindowSize(pageSize: pageSize, estimatedHeight: estimatedHeight, viewportHeight: viewportHeight)
        last = (viewportHeight, pageSize, estimatedHeight, size)
        return size
    }
}

public struct WindowSize: Hashable, Sendable {
    /// The least prefetch distance, in viewport heights: even when a page is shorter than a screen and a half
    /// (the window then holds more pages), a reader scrolling meets rows loaded, not placeholders.
    public static let minimumPrefetchScreens = 0.25
    /// The most prefetch distance, in viewport heights: a page is not loaded back while more than a screen away.
    public static let maximumPrefetchScreens = 1.0
    /// The fewest pages the window holds: the page on screen and the one it is scrolling into.
    public static let minimumPages = 2

    /// How near the viewport, px, placeholders make the window load their page back; a page is dropped only
    /// when it lies farther than this outside the viewport.
    public let prefetch: Double
    /// The pages the window holds when its rows are at the estimate.
    public let pages: Int
    /// The rows the window holds (``pages`` × the page size): pages are dropped while more are held.
    public let heldRows: Int

    /// The window for pages of `pageSize` rows of `estimatedHeight` px, seen through a viewport
    /// `viewportHeight` px tall.
    public init(pageSize: Int, estimatedHeight: Double, viewportHeight: Double) {
        let pageSize = max(1, pageSize)
        let viewport = viewportHeight.isFinite ? max(0, viewportHeight) : 0
        let pageHeight = Double(pageSize) * estimatedHeight
        prefetch = min(
            Self.maximumPrefetchScreens * viewport,
            max(Self.minimumPrefetchScreens * viewport, (pageHeight - viewport) / 2))
        // Pages a span of `viewport + 2 × prefetch` px can meet; the tolerance keeps an exact fit at its count.
        // (At most a thousand: a configuration's rows are 8 px tall at least, pages a row long.)
        let span = pageHeight > 0 ? min(1_000, (viewport + 2 * prefetch) / pageHeight) : 1_000
        let met = 1 + Int((span - 1e-9).rounded(.up))
        pages = max(Self.minimumPages, met)
        heldRows = pages * pageSize
    }
}
