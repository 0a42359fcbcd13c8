/// The limits of `GET /feed/image` (docs/FEEDS.md, "Images"): one place for every default, read by the server,
/// its command line and its tests.
public struct ImageLimits: Sendable, Hashable {
    /// The largest image fetched and served, bytes (4 MiB: a large photo; a row draws at most 240 px high).
    public var maxImageBytes = 4 * 1024 * 1024
    /// The cache's total, bytes (`serve --image-cache-mb`, default 64 MiB).
    public var cacheBytes = 64 * 1024 * 1024
    /// The most images the cache holds, whatever their size.
    public var cacheCount = 1024
    /// How long a source may take to send an image, milliseconds (`serve --image-timeout-ms`).
    public var timeoutMilliseconds = 5000
    /// The longest image address taken, bytes (the feeds' own limit for a field, `FeedLimits`).
    public var maxURLBytes = 2048
    /// Images being fetched or waiting for a fetcher at once; past it a request is answered 503.
    public var maxFetches = 64
    /// Fetches run at once (threads: each blocks in libcurl while its source answers).
    public var fetchers = 4
    /// Image addresses remembered as given by the feed (the ones a page may ask for).
    public var knownURLs = 20_000
    /// How long a failed fetch's answer is given again without fetching, seconds (`serve --image-retry-seconds`;
    /// 0: every request fetches again), and how many such failures are remembered (`FailedImages`).
    public var failureSeconds = 30
    public var failuresKept = 4096

    public init() {}

    /// `serve --image-cache-mb` in bytes.
    public init(cacheMegabytes: Int, timeoutMilliseconds: Int) {
        cacheBytes = cacheMegabytes * 1024 * 1024
        self.timeoutMilliseconds = timeoutMilliseconds
    }
}
