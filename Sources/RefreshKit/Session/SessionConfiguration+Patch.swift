extension SessionConfiguration {
    /// This configuration with `patch` applied (a preset first, then the fields), or an error naming the
    /// first value out of range; nothing is applied then.
    /// - Returns: the new configuration, and the preset's name when the patch named one.
    public func applying(_ patch: ConfigurationPatch) throws(SessionError) -> (
        configuration: SessionConfiguration, preset: String?
    ) {
        var result = self
        var presetName: String?
        if let name = patch.preset {
            guard let preset = Preset.named(name) else {
                throw .unknownPreset(name)
            }
            result = preset.configuration
            presetName = preset.name
        }
        if let insets = patch.insets {
            for edge in Edge.allCases {
                try Validation.check(insets[edge], in: 0...10_000, "insets.\(edge.rawValue)")
            }
            result.insets = insets
        }
        for edge in Edge.allCases {
            guard let edgePatch = patch.edges[edge] else { continue }
            var configuration = result.edges[edge] ?? .none
            try configuration.apply(edgePatch, edge: edge)
            result.edges[edge] = configuration
        }
        if let feed = patch.feed { try result.feed.apply(feed) }
        if let physics = patch.physics {
            if let rate = physics.decelerationRate {
                try Validation.check(rate, in: 0.5...0.9999, "physics.decelerationRate")
                result.decelerationRate = rate
            }
            if let spring = physics.spring {
                guard Spring.named(spring) != nil else {
                    throw .outOfRange(
                        "physics.spring must be one of \(Spring.presetNames.joined(separator: ", ")); got '\(spring)'")
                }
                result.springName = spring
            }
            if let band = physics.rubberBand {
                try Validation.check(band, in: 0.05...1, "physics.rubberBand")
                result.rubberBand = band
            }
        }
        return (result, presetName)
    }
}

extension EdgeConfiguration {
    mutating func apply(_ patch: ConfigurationPatch.EdgePatch, edge: Edge) throws(SessionError) {
        let name = "edges.\(edge.rawValue)"
        if let value = patch.role { role = value }
        if let value = patch.enabled { enabled = value }
        if let value = patch.triggerDistance {
            try Validation.check(value, in: 1...10_000, "\(name).triggerDistance")
            triggerDistance = value
        }
        if let value = patch.restingInset {
            try Validation.check(value, in: 0...10_000, "\(name).restingInset")
            restingInset = value
        }
        if let value = patch.promptingInset {
            try Validation.check(value, in: 0...10_000, "\(name).promptingInset")
            promptingInset = value
        }
        if let value = patch.preload {
            try Validation.check(value, in: 0...100_000, "\(name).preload")
            preload = value
        }
        if let value = patch.trigger { trigger = value }
        if let value = patch.strictness { strictness = value }
        if let value = patch.fling { fling = value }
        if let value = patch.shortContent { shortContent = value }
        if let value = patch.minimumVisibleDuration {
            try Validation.check(value, in: 0...60, "\(name).minimumVisibleDuration")
            minimumVisibleDuration = value
        }
        if let value = patch.startDuration {
            try Validation.check(value, in: 0...60, "\(name).startDuration")
            startDuration = value
        }
        if let value = patch.exitDuration {
            try Validation.check(value, in: 0...60, "\(name).exitDuration")
            exitDuration = value
        }
        if let value = patch.endsOnCycleBoundary { endsOnCycleBoundary = value }
        if let value = patch.presentation { presentation = value }
        if let value = patch.anchor { anchor = value }
        if let value = patch.viewBehaviour { viewBehaviour = value }
        if let value = patch.cycleDuration {
            try Validation.check(value, in: 0.05...60, "\(name).cycleDuration")
            cycle.duration = value
        }
        if let value = patch.cycleDelay {
            try Validation.check(value, in: 0...60, "\(name).cycleDelay")
            cycle.delay = value
        }
        if let value = patch.cycleKind { cycle.kind = value }
        if let value = patch.height {
            try Validation.check(value, in: 1...10_000, "\(name).height")
            height = value
        }
    }
}

extension FeedConfiguration {
    mutating func apply(_ patch: ConfigurationPatch.FeedPatch) throws(SessionError) {
        if let value = patch.latencyMs {
            try Validation.check(value, in: 0...600_000, "feed.latencyMs")
            latencyMs = value
        }
        if let value = patch.failureRate {
            try Validation.check(value, in: 0...1, "feed.failureRate")
            failureRate = value
        }
        if let value = patch.pageSize {
            try Validation.check(value, in: 1...1000, "feed.pageSize")
            pageSize = value
        }
        if let value = patch.totalItems {
            try Validation.check(value, in: 0...1_000_000, "feed.totalItems")
            totalItems = value
        }
        if let value = patch.newItemsPerRefresh {
            try Validation.check(value, in: 0...1000, "feed.newItemsPerRefresh")
            newItemsPerRefresh = value
        }
        if let value = patch.rowHeight {
            try Validation.check(value, in: 8...1000, "feed.rowHeight")
            rowHeight = value
        }
        if let value = patch.timeoutMs {
            try Validation.check(value, in: 1...600_000, "feed.timeoutMs")
            timeoutMs = value
        }
    }
}
