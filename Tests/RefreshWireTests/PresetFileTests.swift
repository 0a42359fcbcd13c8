import RefreshKit
import Testing

@testable import RefreshWire

/// Preset files (docs/PRESETS.md): written complete, read back the same, and refused whole with every problem.
@Suite struct PresetFileTests {
    static func read(_ text: String, presets: PresetCatalogue = .seeds) throws(PresetProblems) -> Preset {
        try PresetFile.read(Array(text.utf8), presets: presets)
    }

    static func config(_ configuration: ListConfiguration) -> String {
        var buffer: [UInt8] = []
        appendJSON(to: &buffer, bound: 64 * 1024) { w in ConfigurationJSON.appendConfiguration(configuration, to: &w) }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// `preset show`'s file names the seed as its base, and reads back as the very seed.
    @Test(arguments: Preset.all)
    func aSeedsFileReadsBackAsTheSeed(seed: Preset) throws {
        let text = PresetFile.write(seed, base: seed.name)
        #expect(try Self.read(text) == seed)
    }

    /// Without a base the file is complete all the same: its configuration is the seed's `welcome.config`.
    @Test(arguments: Preset.all)
    func aFileWithoutABaseIsComplete(seed: Preset) throws {
        let preset = try Self.read(PresetFile.write(seed))
        #expect(Self.config(preset.configuration) == Self.config(seed.configuration))
        #expect(preset.name == seed.name && preset.summary == seed.summary)
        #expect(preset.library?.name == seed.library?.name)
    }

    @Test func fieldsLeftOutComeFromTheBase() throws {
        let preset = try Self.read(
            #"{"name":"mine","base":"jh","config":{"edges":{"top":{"triggerDistance":90,"control":"bubbles"}},"feed":{"pageSize":5}}}"#
        )
        var expected = Preset.jh.configuration
        expected.edges[.top]?.triggerDistance = 90
        expected.edges[.top]?.control = "bubbles"
        expected.feed.pageSize = 5
        #expect(preset.configuration == expected)
        #expect(preset.name == "mine" && preset.library == Preset.jh.library && preset.summary == Preset.jh.summary)
        // a base may be a preset registered before
        var catalogue = PresetCatalogue.seeds
        try catalogue.register(preset)
        let child = try Self.read(#"{"name":"child","base":"mine","config":{}}"#, presets: catalogue)
        #expect(child.configuration == expected)
    }

    /// Unknown keys, wrong types, values out of range and missing fields: all of them, in the file's order.
    @Test func aBadFileIsRefusedWithEveryProblem() {
        let text = #"""
            {"name": "a b", "colour": 1, "base": "jh",
             "config": {"edges": {"top": {"triggerDistance": 20000, "role": 3, "control": "", "wat": 1}, "middle": {}},
                        "feed": {"pageSize": 1.5}, "physics": [], "extra": {}}}
            """#
        #expect {
            try Self.read(text)
        } throws: { error in
            (error as? PresetProblems)?.problems == [
                "colour: unknown key; expected one of name, base, library, summary, config",
                "name: 'a b' is not a name of 1 to 64 characters from A-Z, a-z, 0-9, _ and -",
                "extra: unknown key; expected one of edges, insets, feed, physics, events",
                "edges.top.wat: unknown key; expected one of "
                    + ConfigurationSchema.edge.map(\.name).joined(separator: ", "),
                "edges.top.role must be one of refresh, loadMore; got a number",
                "edges.top.triggerDistance must be between 1 and 10000, got 20000.0",
                "edges.top.control must be a name of 1 to 64 characters from A-Z, a-z, 0-9, _ and -; got ''",
                "edges.middle: not an edge; expected one of top, bottom, left, right",
                "feed.pageSize must be an integer; got a number",
                "physics must be an object; got an array",
            ]
        }
    }

    @Test func withoutABaseEveryFieldIsRequired() {
        #expect {
            try Self.read(#"{"name":"x","config":{"edges":{"left":{"role":"refresh"}}}}"#)
        } throws: { error in
            let problems = (error as? PresetProblems)?.problems ?? []
            return problems.count == ConfigurationSchema.edge.count - 1 + 3
                && problems.first == "edges.left.enabled is required: true or false"
                && problems.suffix(3) == [
                    "insets is required (or a base to take it from)",
                    "feed is required (or a base to take it from)",
                    "physics is required (or a base to take it from)",
                ]
        }
        #expect(throws: PresetProblems(["config is required", "name is required"].reversed())) {
            try Self.read(#"{}"#)
        }
        #expect(throws: PresetProblems(["base: no preset named 'nope'; known: ios, jh, ht, gv, ms, iq"])) {
            try Self.read(#"{"name":"x","base":"nope","config":{}}"#)
        }
    }

    @Test func notJSONIsOneProblem() {
        #expect {
            try Self.read(#"{"name": "#)
        } throws: { error in
            let problems = (error as? PresetProblems)?.problems ?? []
            return problems.count == 1 && problems[0].hasPrefix("not JSON: ")
        }
        #expect(throws: PresetProblems(["a preset file is a JSON object; this one is an array"])) {
            try Self.read("[]")
        }
    }

    /// `configure.presetFile`: the page's way to load a file; refused whole, every problem in one error.
    @Test func aPageSendsAFileInConfigure() throws {
        let file = PresetFile.write(Preset.gv, base: "gv")
        let message = try decode(#"{"type":"configure","presetFile":"# + file + "}")
        guard case .input(.configure(let patch), _) = message else {
            Issue.record("decoded as \(message)")
            return
        }
        #expect(patch.presetValue == Preset.gv)
        let (configuration, name) = try Preset.ios.configuration.applying(patch)
        #expect(configuration == Preset.gv.configuration && name == "gv")

        #expect {
            try decode(
                #"{"type":"configure","presetFile":{"name":"x","base":"ios","config":{"feed":{"pageSize":0,"rowHeight":"big"}}}}"#
            )
        } throws: { error in
            guard let error = error as? WireError else { return false }
            return error.code == .badField && error.ref == "configure"
                && error.message
                    == "configure.presetFile is refused (2 problems): feed.pageSize must be between 1 and 1000, got 0\nfeed.rowHeight must be a finite number; got a string"
        }
    }
}
