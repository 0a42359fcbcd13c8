import Testing

@testable import RefreshKit

/// The presets' controls, libraries and the catalogue a host registers its own presets in.
@Suite struct PresetCatalogueTests {
    /// Each seed draws its edges with the controls the page drew them with before the field existed
    /// (docs/PRESETS.md).
    @Test func seedsNameTheirControls() {
        let expected: [String: [Edge: ControlName]] = [
            "ios": [.top: "spinner", .bottom: "footer"],
            "jh": [.top: "colorCycle"],
            "ht": [.top: "arrow", .bottom: "footer", .left: "side", .right: "side"],
            "gv": [.top: "ring"],
            "ms": [.top: "arrow", .bottom: "footer"],
            "iq": [.top: "ring", .bottom: "footer"],
        ]
        for preset in Preset.all {
            #expect(preset.configuration.edges.mapValues(\.control) == expected[preset.name], "\(preset.name)")
        }
    }

    @Test func seedsNameTheirLibraries() {
        #expect(
            Preset.all.map { $0.library?.name } == [
                "UIRefreshControl", "JHPullToRefreshKit", "HTRefreshView", "GVRefreshControl",
                "MSPullToRefreshController", "IQPullToRefresh",
            ])
        #expect(Preset.jh.library?.eventNames["didStart"] == .init(["refreshControlDidStart"]))
        let iqStart = Preset.iq.library?.eventNames["didStart"]
        #expect(iqStart == .init(refresh: [".refreshing"], loadMore: ["loadingBegin"]))
        #expect(iqStart?.isSameForBothRoles == false)
    }

    /// The engine stores a control's name and never reads it: the frames are the same whatever it is.
    @Test func theControlChangesNoFrame() throws {
        var plain = try ListModel(viewport: Size(width: 390, height: 844), time: .zero)
        var named = plain
        var patch = ConfigurationPatch()
        patch.edges[.top, default: .init()][\.control] = "bubbles"
        try named.apply(.configure(patch), at: .zero)
        #expect(named.configuration.edge(.top).control == "bubbles")
        for step in 1...40 {
            let time = Timestamp(microseconds: Int64(step) * 16_000)
            let touch = TouchInput(
                phase: step == 1 ? .start : step == 40 ? .end : .move, delta: Point(x: 0, y: step == 1 ? 0 : 6),
                pageTime: Double(step) * 16)
            try plain.apply(.touch(touch), at: time)
            try named.apply(.touch(touch), at: time)
            #expect(plain.frame() == named.frame())
        }
    }

    @Test func aRegisteredPresetIsFoundByName() throws {
        var catalogue = PresetCatalogue.seeds
        var configuration = Preset.ios.configuration
        configuration.edges[.top]?.triggerDistance = 120
        configuration.edges[.top]?.control = "bubbles"
        try catalogue.register(Preset(name: "mine", summary: "ios, pulled further", configuration: configuration))
        #expect(catalogue.names == Preset.names + ["mine"])
        #expect(catalogue.named("mine")?.configuration.edge(.top).triggerDistance == 120)
        #expect(PresetCatalogue.seeds.named("mine") == nil)
        let model = try ListModel(
            viewport: Size(width: 390, height: 844), preset: "mine", in: catalogue, time: .zero)
        #expect(model.presetName == "mine")
        #expect(model.configuration.edge(.top).control == "bubbles")
        #expect(throws: ListModelError.self) {
            try ListModel(viewport: Size(width: 390, height: 844), preset: "mine", time: .zero)
        }
    }

    /// A control's name is checked where it is made: a name with a space, an empty one or one of 65 characters
    /// cannot be put in a configuration at all (a preset file's are refused with the other errors).
    @Test func aControlNameIsValidOrNothing() {
        #expect(ControlName(validating: "no spaces") == nil)
        #expect(ControlName(validating: "") == nil)
        #expect(ControlName(validating: String(repeating: "a", count: 65)) == nil)
        let longest = String(repeating: "z", count: 64)
        #expect(ControlName(validating: longest)?.description == longest)
        #expect(ControlName(validating: "htFooter-2_b")?.description == "htFooter-2_b")
        #expect(ControlName(validating: "ring") == "ring")
        #expect(ControlName(validating: "ring") != ControlName(validating: "rings"))
    }

    /// A registration is refused whole, with every problem listed.
    @Test func aBadPresetIsRefusedWithEveryProblem() {
        var catalogue = PresetCatalogue.seeds
        var configuration = Preset.ios.configuration
        configuration.edges[.top]?.triggerDistance = 20_000
        configuration.feed.pageSize = 0
        #expect {
            try catalogue.register(Preset(name: "ios", configuration: configuration))
        } throws: { error in
            (error as? PresetProblems)?.problems == [
                "edges.top.triggerDistance must be between 1 and 10000, got 20000.0",
                "feed.pageSize must be between 1 and 1000, got 0",
            ]
        }
        #expect(throws: PresetProblems.self) {
            try catalogue.register(Preset(name: "a b", configuration: Preset.ios.configuration))
        }
        #expect(catalogue == .seeds)
    }

    /// A preset named like one the catalogue has takes its place (a seed's too).
    @Test func aPresetOfTheSameNameReplacesIt() throws {
        var catalogue = PresetCatalogue.seeds
        try catalogue.register(Preset(name: "jh", configuration: Preset.ios.configuration))
        #expect(catalogue.names == Preset.names)
        #expect(catalogue.named("jh")?.configuration == Preset.ios.configuration)
    }

    /// A patch may carry the preset to start from as a value: what a host found in its catalogue.
    @Test func aPatchStartsFromAPresetValue() throws {
        let mine = Preset(name: "mine", configuration: Preset.jh.configuration)
        let (configuration, name) = try Preset.ios.configuration.applying(ConfigurationPatch(presetValue: mine))
        #expect(name == "mine" && configuration == Preset.jh.configuration)
    }
}
