import RefreshKit

/// Checks a page that an untrusted source returned, and turns the first violation into a `FeedError`.
///
/// A page is good when it holds no more items than asked (and than ``FeedLimits/maxItems``); every id is
/// non-empty; no time is negative; texts and fields are within their limits. Its order and its dates are the
/// feed's own, as a feed reader takes them (docs/FEEDS.md, "Order and dates"); an id it repeats is the engine's
/// to take once. Pure.
public struct FeedPageValidator: Hashable, Sendable {
    /// The bounds checked.
    public var limits: FeedLimits

    /// A validator for `limits`.
    public init(limits: FeedLimits = FeedLimits()) {
        self.limits = limits
    }

    /// `page` itself when it is good for `request`; otherwise the first fault, as an error.
    public func validate(_ page: FeedPage, for request: FeedRequest) throws(FeedError) -> FeedPage {
        let allowed = min(request.limit, limits.maxItems)
        guard page.items.count <= allowed else {
            throw .oversized(what: "page (\(page.items.count) items)", limit: allowed)
        }
        for item in page.items { try check(item) }
        return page
    }

    private func check(_ item: FeedItem) throws(FeedError) {
        guard !item.id.isEmpty else { throw .malformed("an item has an empty id") }
        guard item.id.utf8.count <= limits.maxFieldBytes else {
            throw .oversized(what: "item id", limit: limits.maxFieldBytes)
        }
        guard item.text.utf8.count <= limits.maxTextBytes else {
            throw .oversized(what: "text of item \"\(item.id)\"", limit: limits.maxTextBytes)
        }
        for (what, field) in [("author", item.author), ("title", item.title), ("link", item.url)] {
            if let field, field.utf8.count > limits.maxFieldBytes {
                throw .oversized(what: "\(what) of item \"\(item.id)\"", limit: limits.maxFieldBytes)
            }
        }
        if let image = item.image {
            guard image.url.utf8.count <= limits.maxFieldBytes else {
                throw .oversized(what: "image address of item \"\(item.id)\"", limit: limits.maxFieldBytes)
            }
            if (image.width ?? 1) <= 0 || (image.height ?? 1) <= 0 {
                throw .malformed("item \"\(item.id)\" has an image of no size")
            }
        }
        guard (item.timeMicros ?? 0) >= 0 else { throw .malformed("item \"\(item.id)\" has a time before 1970") }
    }
}
