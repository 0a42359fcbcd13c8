import RefreshKit

// What the server's image endpoint asks the host (docs/FEEDS.md, "Images"): whether an address is the image of an
// item a session holds, so only the feed's own images are fetched.
extension SessionHost {
    /// Whether any session holds an item whose image is at `url`. O(items held in all sessions): asked only for
    /// an address the image endpoint has not seen in the feed's answers (a session rebuilt by a take-over).
    public func holdsFeedImage(_ url: String) -> Bool {
        sessions.values.contains { session in session.model.pager.items.contains { $0.image?.url == url } }
    }
}
