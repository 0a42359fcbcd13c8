/// A side of the window of held pages: the rows above it (newer) or below it (older).
public enum PageEdge: String, Hashable, Sendable, Codable, CaseIterable {
    /// Above the held pages: newer rows, toward the top of the list.
    case above
    /// Below the held pages: older rows, toward the end of the list.
    case below
}
