/// The image addresses whose fetch failed lately, and the answer each got (docs/FEEDS.md, "Images"): asked again
/// within ``ImageLimits/failureSeconds``, the same answer at once, without fetching again. Otherwise a client could
/// make the server fetch a broken or slow image as often as it likes (a slow one holds a fetcher for the whole time
/// limit), and a page showing a broken image would have every row of it ask the source again.
///
/// A pure value, confined to the service thread: the time is passed in (µs, monotonic). At most `maxCount` are
/// remembered; the expired go first, then the one that expires soonest.
struct FailedImages: Sendable {
    let lifetimeMicros: Int64
    let maxCount: Int
    private var failures: [String: (response: ImageEndpoint.Response, until: Int64)] = [:]

    init(seconds: Int, maxCount: Int) {
        lifetimeMicros = Int64(seconds) * 1_000_000
        self.maxCount = maxCount
    }

    var count: Int { failures.count }

    /// The answer `url`'s failed fetch got, while it is remembered.
    mutating func answer(for url: String, at now: Int64) -> ImageEndpoint.Response? {
        guard let failure = failures[url] else { return nil }
        guard now < failure.until else {
            failures[url] = nil
            return nil
        }
        return failure.response
    }

    /// `url`'s fetch failed with `response` at `now`.
    mutating func remember(_ response: ImageEndpoint.Response, for url: String, at now: Int64) {
        guard lifetimeMicros > 0, maxCount > 0 else { return }
        if failures[url] == nil, failures.count >= maxCount {
            failures = failures.filter { $0.value.until > now }
            if failures.count >= maxCount, let soonest = failures.min(by: { $0.value.until < $1.value.until }) {
                failures[soonest.key] = nil
            }
        }
        failures[url] = (response, now + lifetimeMicros)
    }
}
