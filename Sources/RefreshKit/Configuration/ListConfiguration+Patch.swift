extension ListConfiguration {
    /// This configuration with `patch` applied (a preset first: ``ConfigurationPatch/presetValue``, else the seed `preset` names; then the fields in ``ConfigurationSchema``'s
    /// order: edges, insets, feed, physics), or an error naming the first value out of range; nothing is applied then.
    /// - Returns: the new configuration, and the preset's name when the patch named one.
    public func applying(_ patch: ConfigurationPatch) throws(ListModelError) -> (
        configuration: ListConfiguration, preset: String?
    ) {
        var result = self
        var presetName: String?
        if let name = patch.preset ?? patch.presetValue?.name {
            guard let preset = patch.presetValue ?? Preset.named(name) else {
                throw .unknownPreset(name)
            }
            result = preset.configuration
            presetName = preset.name
        }
        for edge in Edge.allCases {
            guard let changes = patch.edges[edge] else { continue }
            var configuration = result.edges[edge] ?? .none
            try changes.apply(to: &configuration, scope: "edges.\(edge.rawValue)")
            result.edges[edge] = configuration
        }
        if let insets = patch.insets {
            for field in ConfigurationSchema.insets {
                try field.check(field.value(in: insets), in: "insets")
            }
            result.insets = insets
        }
        if let feed = patch.feed { try feed.apply(to: &result.feed, scope: "feed") }
        if let physics = patch.physics { try physics.apply(to: &result, scope: "physics") }
        if let events = patch.events {
            guard events == .refreshkit || result.library != nil else {
                throw .outOfRange(
                    "events must be refreshkit: the preset imitates no library whose events it could name")
            }
            result.events = events == .refreshkit ? nil : events  // (nil is RefreshKit's)
        }
        return (result, presetName)
    }
}
