/// A partial change of a model's configuration, as sent by `configure`. Every part is optional; the
/// model checks the values against ``ConfigurationSchema`` and refuses the whole patch if one is out of
/// range.
public struct ConfigurationPatch: Hashable, Sendable {
    /// Changes to one edge's configuration.
    public typealias EdgePatch = FieldChanges<EdgeConfiguration>
    /// Changes to the simulated feed.
    public typealias FeedPatch = FieldChanges<FeedConfiguration>
    /// Changes to the scroll physics (``ConfigurationSchema/physics``).
    public typealias PhysicsPatch = FieldChanges<ListConfiguration>

    /// Replace everything with a named preset first (then apply the rest of the patch).
    public var preset: String?
    /// The preset to replace everything with, as a value: what a host found for ``preset`` in its
    /// ``PresetCatalogue``, or a preset file the page sent whole. Without it, ``preset`` names a seed.
    public var presetValue: Preset?
    /// The app's own content inset (bars, safe areas), all four sides; edge controls never touch it.
    public var insets: EdgeInsets?
    public var edges: [Edge: EdgePatch]
    public var feed: FeedPatch?
    public var physics: PhysicsPatch?
    /// Whose names the events carry from now on (``ListConfiguration/events``).
    public var events: ListConfiguration.EventNaming?

    public init(
        preset: String? = nil, presetValue: Preset? = nil, insets: EdgeInsets? = nil, edges: [Edge: EdgePatch] = [:],
        feed: FeedPatch? = nil,
        physics: PhysicsPatch? = nil,
        events: ListConfiguration.EventNaming? = nil
    ) {
        self.preset = preset
        self.presetValue = presetValue
        self.insets = insets
        self.edges = edges
        self.feed = feed
        self.physics = physics
        self.events = events
    }
}
