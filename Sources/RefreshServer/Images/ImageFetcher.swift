import Foundation
import RefreshFeeds
import RefreshKit

/// Fetches one image with the feed source's libcurl fetcher (``CurlFetcher``): http and https only (redirects
/// too, at most 5), connecting only where the feed's `FetchPolicy` allows (docs/FEEDS.md, "What is fetched, and
/// what is refused"), within ``ImageLimits/timeoutMilliseconds`` and ``ImageLimits/maxImageBytes`` (a body past
/// it is cut off as soon as it is past, not read to its end). Blocking: it runs on a fetcher thread of
/// ``ImageFetchService``, never on the service thread.
enum ImageFetcher {
    /// The body and `Content-Type` at `url`.
    static func fetch(
        _ url: String, limits: ImageLimits, policy: FetchPolicy
    ) -> Result<ImageEndpoint.Fetched, ImageEndpoint.FetchFailure> {
        do {
            let got = try CurlFetcher.get(
                url, timeoutMs: limits.timeoutMilliseconds, maxBytes: limits.maxImageBytes, policy: policy)
            return .success(ImageEndpoint.Fetched(bytes: Array(got.body), contentType: got.contentType))
        } catch {
            switch error {
            case .oversized: return .failure(.tooLarge(limit: limits.maxImageBytes))
            case .timedOut: return .failure(.timedOut(milliseconds: limits.timeoutMilliseconds))
            case .unavailable(let reason): return .failure(.sourceFailed(reason))
            default: return .failure(.sourceFailed(error.description))
            }
        }
    }
}
