import Testing

@testable import RefreshKit

/// ``ConfigurationSchema`` drives applying and checking a `configure` patch: every field it lists is stored
/// where its key path says, its range and names are enforced with an error that names the field, and a
/// refused patch changes nothing.
@Suite struct ConfigurationSchemaTests {
    @Test func namesAreUniqueWithinEachScope() {
        for names in [
            ConfigurationSchema.edge.map(\.name), ConfigurationSchema.insets.map(\.name),
            ConfigurationSchema.feed.map(\.name), ConfigurationSchema.physics.map(\.name),
        ] {
            #expect(Set(names).count == names.count, "\(names)")
        }
    }

    /// Every preset's values lie within the schema's ranges and names, and each field reads back what it
    /// stores.
    @Test(arguments: Preset.all)
    func everyPresetIsWithinTheSchema(preset: Preset) throws {
        let configuration = preset.configuration
        for (edge, edgeConfiguration) in configuration.edges {
            try Self.checkAll(ConfigurationSchema.edge, of: edgeConfiguration, "edges.\(edge.rawValue)")
        }
        try Self.checkAll(ConfigurationSchema.insets, of: configuration.insets, "insets")
        try Self.checkAll(ConfigurationSchema.feed, of: configuration.feed, "feed")
        try Self.checkAll(ConfigurationSchema.physics, of: configuration, "physics")
    }

    private static func checkAll<Root: Equatable>(
        _ fields: [ConfigurationField<Root>], of root: Root, _ scope: String
    ) throws {
        for field in fields {
            let value = field.value(in: root)
            try field.check(value, in: scope)
            var copy = root
            #expect(field.store(value, in: &copy))
            #expect(copy == root, "\(scope).\(field.name)")
        }
    }

    /// A key path names its field: the patch holds the value under the wire name, and applying it stores the
    /// value at that key path.
    @Test func aKeyPathSetsItsField() throws {
        var top = ConfigurationPatch.EdgePatch()
        top[\.cycle.duration] = 0.5
        top[\.trigger] = .manual
        top[\.enabled] = false
        #expect(top.values == ["cycleDuration": .number(0.5), "trigger": .name("manual"), "enabled": .bool(false)])
        #expect(top[\.cycle.duration] == 0.5 && top[\.trigger] == .manual && top[\.triggerDistance] == nil)
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.pageSize] = 7
        var physics = ConfigurationPatch.PhysicsPatch()
        physics[\.springName] = "pop"
        let base = Preset.ios.configuration
        let (applied, preset) = try base.applying(
            ConfigurationPatch(edges: [.top: top, .left: .init()], feed: feed, physics: physics))
        #expect(preset == nil)
        #expect(applied.edge(.top).cycle.duration == 0.5)
        #expect(applied.edge(.top).trigger == .manual && !applied.edge(.top).enabled)
        #expect(applied.feed.pageSize == 7 && applied.springName == "pop")
        #expect(applied.edges[.left] == EdgeConfiguration.none, "an empty patch of an absent edge adds it, off")
        top[\.trigger] = nil
        #expect(top.values["trigger"] == nil)
    }

    /// Each field takes its bounds (its names) and refuses what lies just outside them, or is not finite, with
    /// `out_of_range` naming the field.
    @Test func valuesAreCheckedAgainstTheirRangesAndNames() throws {
        func patch<Root: Configurable>(
            _ field: ConfigurationField<Root>, _ value: ConfigurationValue
        ) -> ConfigurationPatch {
            var changes = FieldChanges<Root>()
            changes.set(field, to: value)
            switch changes {
            case let edge as ConfigurationPatch.EdgePatch: return ConfigurationPatch(edges: [.bottom: edge])
            case let feed as ConfigurationPatch.FeedPatch: return ConfigurationPatch(feed: feed)
            case let physics as ConfigurationPatch.PhysicsPatch: return ConfigurationPatch(physics: physics)
            default: fatalError("insets are set as a whole")
            }
        }
        var ranges = 0
        ranges += try Self.checkRanges(ConfigurationSchema.edge, "edges.bottom") { patch($0, $1) }
        ranges += try Self.checkRanges(ConfigurationSchema.feed, "feed") { patch($0, $1) }
        ranges += try Self.checkRanges(ConfigurationSchema.physics, "physics") { patch($0, $1) }
        #expect(ranges == 10 + 8 + 2)
    }

    /// - Returns: how many fields with a range it checked.
    private static func checkRanges<Root>(
        _ fields: [ConfigurationField<Root>], _ scope: String,
        _ patch: (ConfigurationField<Root>, ConfigurationValue) -> ConfigurationPatch
    ) throws -> Int {
        let base = Preset.ms.configuration
        func refused(_ field: ConfigurationField<Root>, _ value: ConfigurationValue) -> ListModelError? {
            #expect(throws: ListModelError.self) { try base.applying(patch(field, value)) }
        }
        var ranges = 0
        for field in fields {
            let name = "\(scope).\(field.name)"
            switch field.kind {
            case .number(let rule):
                let (low, high) = (rule.range.lowerBound, rule.range.upperBound)
                for good in [low, high] { _ = try base.applying(patch(field, .number(good))) }
                let bounds = "\(NumberRule.format(low)) and \(NumberRule.format(high))"
                for bad in [low - max(1e-6, low * 1e-9), high * 1.001, .nan, .infinity] {
                    let error = refused(field, .number(bad))
                    #expect(error?.reason == .outOfRange)
                    #expect(error?.message == "\(name) must be between \(bounds), got \(bad)")
                }
                ranges += 1
            case .integer(let rule):
                let (low, high) = (Int(rule.range.lowerBound), Int(rule.range.upperBound))
                for good in [low, high] { _ = try base.applying(patch(field, .integer(good))) }
                for bad in [low - 1, high + 1, .min, .max] {
                    #expect(
                        refused(field, .integer(bad))?.message
                            == "\(name) must be between \(low) and \(high), got \(bad)")
                }
                ranges += 1
            case .enumeration(let names):
                for good in names { _ = try base.applying(patch(field, .name(good))) }
                let error = refused(field, .name("x"))
                #expect(error?.reason == .outOfRange)
                #expect(error?.message == "\(name) must be one of \(names.joined(separator: ", ")); got 'x'")
            case .bool:
                for good in [false, true] { _ = try base.applying(patch(field, .bool(good))) }
            case .name:
                for good in ["a", "my-control_2", String(repeating: "x", count: 64)] {
                    _ = try base.applying(patch(field, .name(good)))
                }
                for bad in ["", "a b", "ünï", "a/b", String(repeating: "x", count: 65)] {
                    let error = refused(field, .name(bad))
                    #expect(error?.reason == .outOfRange)
                    #expect(error?.message == "\(name) must be \(field.kind.expectation); got '\(bad)'")
                }
            }
        }
        return ranges
    }

    /// Today's messages, word for word (the page's panel finds the field in them).
    @Test func errorsReadAsBefore() throws {
        var top = ConfigurationPatch.EdgePatch()
        top[\.triggerDistance] = 0
        let error = #expect(throws: ListModelError.self) {
            try Preset.ios.configuration.applying(ConfigurationPatch(edges: [.top: top]))
        }
        #expect(
            error
                == ListModelError(
                    .outOfRange, message: "edges.top.triggerDistance must be between 1 and 10000, got 0.0"))
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.pageSize] = 0
        let feedError = #expect(throws: ListModelError.self) {
            try Preset.ios.configuration.applying(ConfigurationPatch(feed: feed))
        }
        #expect(feedError?.message == "feed.pageSize must be between 1 and 1000, got 0")
        var physics = ConfigurationPatch.PhysicsPatch()
        physics[\.springName] = "bouncy"
        let springError = #expect(throws: ListModelError.self) {
            try Preset.ios.configuration.applying(ConfigurationPatch(physics: physics))
        }
        #expect(springError?.message == "physics.spring must be one of ios, pop, critical, fast; got 'bouncy'")
        let insetError = #expect(throws: ListModelError.self) {
            try Preset.ios.configuration.applying(ConfigurationPatch(insets: EdgeInsets(left: -1)))
        }
        #expect(insetError?.message == "insets.left must be between 0 and 10000, got -1.0")
    }

    /// A value of another kind than its field's (only the Swift API can make one) is `bad_field`.
    @Test func aValueOfTheWrongKindIsABadField() throws {
        var top = ConfigurationPatch.EdgePatch()
        top.set(ConfigurationSchema.edge.first { $0.name == "height" }!, to: .name("tall"))
        let error = #expect(throws: ListModelError.self) {
            try Preset.ios.configuration.applying(ConfigurationPatch(edges: [.top: top]))
        }
        #expect(error == ListModelError(.wrongKind, message: "edges.top.height must be a finite number"))
    }

    /// One refused value refuses the whole patch: fields before it in the same scope, other edges, the feed.
    @Test func aRefusedPatchChangesNothing() throws {
        var model = try ListModel(viewport: Size(width: 390, height: 844), time: .zero)
        let before = model
        var top = ConfigurationPatch.EdgePatch()
        top[\.triggerDistance] = 50
        top[\.height] = -1
        var bottom = ConfigurationPatch.EdgePatch()
        bottom[\.preload] = 10
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.latencyMs] = 10
        let patch = ConfigurationPatch(edges: [.top: top, .bottom: bottom], feed: feed)
        #expect(throws: ListModelError.self) { try model.apply(.configure(patch), at: .zero) }
        #expect(model == before)
    }

    @Test func theSpringsAreTheEnginesNamedSprings() {
        let spring = ConfigurationSchema.physics.first { $0.name == "spring" }
        #expect(spring?.kind == .enumeration(Spring.presetNames))
        #expect(Spring.presetNames.allSatisfy { Spring.named($0) != nil })
    }
}
