import RefreshKit

/// Random `configure` patches: presets, edge fields, the feed and the physics. Most values are in range;
/// a few are not (just past a bound, NaN, infinite, an unknown name), and then the model must refuse the
/// whole patch and change nothing.
extension FuzzRandom {
    /// A patch, and whether the model must accept it.
    mutating func configurationPatch() -> (patch: ConfigurationPatch, valid: Bool) {
        var invalid = false
        var patch = ConfigurationPatch()
        if chance(0.15) { patch.preset = pick(Preset.names) }
        if chance(0.01) {
            patch.preset = pick(["", "IOS", "nope", "ios "])
            invalid = true
        }
        for edge in Edge.allCases where chance(0.25) {
            patch.edges[edge] = edgePatch(invalid: &invalid)
        }
        if chance(0.08) {
            var insets = EdgeInsets()
            for edge in Edge.allCases where chance(0.5) {
                insets[edge] = field(0...10_000, typical: 0...100, invalid: &invalid)
            }
            patch.insets = insets
        }
        if chance(0.3) { patch.feed = feedPatch(invalid: &invalid) }
        if chance(0.1) { patch.physics = physicsPatch(invalid: &invalid) }
        return (patch, !invalid)
    }

    private mutating func edgePatch(invalid: inout Bool) -> ConfigurationPatch.EdgePatch {
        var edge = ConfigurationPatch.EdgePatch()
        let p = 0.25
        if chance(p) { edge[\.role] = any(EdgeConfiguration.Role.self) }
        if chance(0.5) { edge[\.enabled] = chance(0.75) }
        if chance(p) { edge[\.triggerDistance] = field(1...10_000, typical: 1...200, invalid: &invalid) }
        if chance(p) { edge[\.restingInset] = field(0...10_000, typical: 0...200, invalid: &invalid) }
        if chance(p) { edge[\.promptingInset] = field(0...10_000, typical: 0...100, invalid: &invalid) }
        if chance(p) { edge[\.preload] = field(0...100_000, typical: 0...400, invalid: &invalid) }
        if chance(p) { edge[\.trigger] = any(EdgeConfiguration.Trigger.self) }
        if chance(p) { edge[\.strictness] = any(EdgeConfiguration.Strictness.self) }
        if chance(p) { edge[\.fling] = any(EdgeConfiguration.FlingPolicy.self) }
        if chance(p) { edge[\.shortContent] = any(EdgeConfiguration.ShortContentPolicy.self) }
        if chance(p) { edge[\.minimumVisibleDuration] = field(0...60, typical: 0...2, invalid: &invalid) }
        if chance(p) { edge[\.startDuration] = field(0...60, typical: 0...1, invalid: &invalid) }
        if chance(p) { edge[\.exitDuration] = field(0...60, typical: 0...1, invalid: &invalid) }
        if chance(p) { edge[\.endsOnCycleBoundary] = chance(0.5) }
        if chance(p) { edge[\.presentation] = any(EdgeConfiguration.Presentation.self) }
        if chance(p) { edge[\.anchor] = any(EdgeConfiguration.Anchor.self) }
        if chance(p) { edge[\.viewBehaviour] = any(EdgeConfiguration.ViewBehaviour.self) }
        if chance(p) { edge[\.cycle.duration] = field(0.05...60, typical: 0.05...2, invalid: &invalid) }
        if chance(p) { edge[\.cycle.delay] = field(0...60, typical: 0...1, invalid: &invalid) }
        if chance(p) { edge[\.cycle.kind] = any(EdgeConfiguration.AnimationCycle.Kind.self) }
        if chance(p) { edge[\.height] = field(1...10_000, typical: 1...200, invalid: &invalid) }
        return edge
    }

    private mutating func feedPatch(invalid: inout Bool) -> ConfigurationPatch.FeedPatch {
        var feed = ConfigurationPatch.FeedPatch()
        if chance(0.4) {
            feed[\.latencyMs] =
                chance(0.04)
                ? field(0...600_000, typical: 60_000...600_000, invalid: &invalid)
                : field(0...600_000, typical: 0...3000, invalid: &invalid)
        }
        if chance(0.3) {
            feed[\.failureRate] = chance(0.5) ? pick([0, 0.5, 1]) : field(0...1, typical: 0...1, invalid: &invalid)
        }
        if chance(0.2) { feed[\.pageSize] = count(1...1000, typical: [1, 3, 20, 50], invalid: &invalid) }
        if chance(0.2) {
            feed[\.totalItems] = count(0...1_000_000, typical: [0, 1, 19, 20, 21, 200, 1000], invalid: &invalid)
        }
        if chance(0.2) { feed[\.newItemsPerRefresh] = count(0...1000, typical: [0, 1, 3, 25], invalid: &invalid) }
        if chance(0.2) { feed[\.rowHeight] = field(8...1000, typical: 20...120, invalid: &invalid) }
        if chance(0.2) { feed[\.timeoutMs] = field(1...600_000, typical: 100...20_000, invalid: &invalid) }
        return feed
    }

    private mutating func physicsPatch(invalid: inout Bool) -> ConfigurationPatch.PhysicsPatch {
        var physics = ConfigurationPatch.PhysicsPatch()
        if chance(0.5) { physics[\.decelerationRate] = field(0.5...0.9999, typical: 0.99...0.999, invalid: &invalid) }
        if chance(0.5) { physics[\.rubberBand] = field(0.05...1, typical: 0.05...1, invalid: &invalid) }
        if chance(0.5) {
            if chance(0.1) {
                physics[\.springName] = pick(["", "bouncy", "IOS"])
                invalid = true
            } else {
                physics[\.springName] = pick(["ios", "pop", "critical", "fast"])
            }
        }
        return physics
    }

    /// A value for a field that accepts `range`: a bound, or a value in `typical`; rarely one out of range.
    private mutating func field(
        _ range: ClosedRange<Double>, typical: ClosedRange<Double>, invalid: inout Bool
    ) -> Double {
        if chance(0.03) {
            invalid = true
            return pick([
                range.lowerBound - pick([1e-9, 1, 1e6]), range.upperBound + pick([1e-6, 1, 1e9]), .nan, .infinity,
                -.infinity,
            ])
        }
        switch int(0...9) {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        default: return double(typical)
        }
    }

    /// A count for a field that accepts `range`: a bound, or one of `typical`; rarely one out of range.
    private mutating func count(_ range: ClosedRange<Int>, typical: [Int], invalid: inout Bool) -> Int {
        if chance(0.03) {
            invalid = true
            return pick([range.lowerBound - 1, range.upperBound + 1, Int.min, Int.max])
        }
        switch int(0...9) {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        default: return pick(typical)
        }
    }
}
