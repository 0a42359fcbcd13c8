/// The library a preset imitates, as people know it: its name and its own names for our events, so that a
/// panel can show `didStart (refreshControlDidStart)` beside our event (docs/PROTOCOL.md, "welcome",
/// `catalogue`).
public struct PresetLibrary: Hashable, Sendable {
    /// The library's name (`JHPullToRefreshKit`).
    public var name: String
    /// The library's names for our events, by our event's name (docs/PROTOCOL.md, "event"), or
    /// `transition:<to>` for a state change the library reports as a state of its own.
    public var eventNames: [String: EventNames]
    /// The library's own sequence of events, for a model that asks for it (``ListConfiguration/events``).
    public var dialect: EventDialect?

    public init(name: String, eventNames: [String: EventNames] = [:], dialect: EventDialect? = nil) {
        self.name = name
        self.eventNames = eventNames
        self.dialect = dialect
    }

    /// A library's names for one of our events, which may differ between the two roles.
    public struct EventNames: Hashable, Sendable {
        /// The names when the edge refreshes.
        public var refresh: [String]
        /// The names when the edge loads more.
        public var loadMore: [String]

        /// The same names for both roles.
        public init(_ names: [String]) {
            refresh = names
            loadMore = names
        }

        /// Names that differ between the roles.
        public init(refresh: [String], loadMore: [String]) {
            self.refresh = refresh
            self.loadMore = loadMore
        }

        /// Whether both roles use the same names.
        public var isSameForBothRoles: Bool { refresh == loadMore }
    }
}
