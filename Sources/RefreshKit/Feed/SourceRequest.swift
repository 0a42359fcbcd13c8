/// A request the model has running to an external feed source (``FeedMode/external``): what the host submits
/// to the source, once per ``id`` (``ListModel/sourceRequest``).
///
/// The engine fails it by itself at ``deadline`` (the feed's `timeoutMs` after it was issued, plus
/// ``SourcePager/graceMs``), as it would an answer that never comes.
public struct SourceRequest: Hashable, Sendable, Codable {
    /// Why the model asks.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The first page of an external feed, asked when the model starts (no control runs).
        case firstLoad
        /// A refresh: the newest page.
        case refresh
        /// A load-more: the page older than the last item.
        case nextPage
        /// The window of pages loading a dropped page back (docs/LAYOUT.md, "The window"): the page just newer
        /// than the top held item (edge `top`) or just older than the last one (edge `bottom`). No control asked.
        case reload
        /// A `scrollToItem` to an item not loaded: the page around it (``FeedPosition/around(_:)``), which replaces
        /// the rows (docs/LAYOUT.md, "A jump"). No control asked.
        case jump
    }

    /// Counts up from 1 within a model; an answer names it.
    public var id: Int
    /// Why the model asks.
    public var kind: Kind
    /// The edge whose control asked (the top for the first load).
    public var edge: Edge
    /// A jump's landing (Jump/JumpLanding.swift); `nil` for every other kind. (Four bytes beside the kind and the
    /// edge, in the room the next member's alignment leaves, and coded only when present.)
    public var landing: Landing?
    /// What to ask the source.
    public var request: FeedRequest
    /// When the model asked.
    public var issued: Timestamp
    /// When the model gives up on an answer and fails the request.
    public var deadline: Timestamp

    /// A request; see the properties.
    public init(
        id: Int, kind: Kind, edge: Edge, request: FeedRequest, issued: Timestamp, deadline: Timestamp,
        landing: Landing? = nil
    ) {
        self.id = id
        self.kind = kind
        self.edge = edge
        self.landing = landing
        self.request = request
        self.issued = issued
        self.deadline = deadline
    }
}
