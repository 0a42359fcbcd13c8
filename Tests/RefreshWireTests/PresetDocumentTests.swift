import Foundation
import RefreshKit
import Testing

/// Each seed preset's page in docs/presets/ (docs/presets/ios.md and its siblings) ends with a table of the
/// preset's values, generated from the Swift preset (the one source of a preset's facts) and kept equal by this
/// test: `REFRESHKIT_WRITE_FIXTURES=1 swift test --filter PresetDocument` writes them anew.
@Suite struct PresetDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
    static let writeAnew = ProcessInfo.processInfo.environment["REFRESHKIT_WRITE_FIXTURES"] != nil
    static func begin(_ name: String) -> String {
        "<!-- preset-values: Preset.\(name) as tables, generated and kept equal by PresetDocumentTests -->"
    }
    static let end = "<!-- /preset-values -->"

    /// A value as the docs write it: `60 px`, `0.25 s`, `true`, `` `strict` ``.
    static func written(_ value: ConfigurationValue, _ kind: ConfigurationFieldKind) -> String {
        switch (value, kind) {
        case (.number(let number), .number(let rule)):
            NumberRule.format(number) + (rule.unit.map { " \($0.rawValue)" } ?? "")
        case (.number(let number), _): NumberRule.format(number)
        case (.integer(let integer), _): "\(integer)"
        case (.bool(let bool), _): "\(bool)"
        case (.name(let name), _): "`\(name)`"
        }
    }

    /// The preset's values: one table of its edges' fields (a column per edge), one of the rest.
    static func tables(_ preset: Preset) -> String {
        let configuration = preset.configuration
        let edges = Edge.allCases.filter { configuration.edges[$0] != nil }
        var lines = [
            "| field | " + edges.map(\.rawValue).joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---|", count: edges.count),
        ]
        for field in ConfigurationSchema.edge {
            let values = edges.map { written(field.value(in: configuration.edge($0)), field.kind) }
            lines.append("| `\(field.name)` | " + values.joined(separator: " | ") + " |")
        }
        lines += ["", "| field | value |", "|---|---|"]
        func add<Root>(_ fields: [ConfigurationField<Root>], of root: Root, _ scope: String) {
            for field in fields {
                lines.append("| `\(scope).\(field.name)` | \(written(field.value(in: root), field.kind)) |")
            }
        }
        add(ConfigurationSchema.insets, of: configuration.insets, "insets")
        add(ConfigurationSchema.feed, of: configuration.feed, "feed")
        add(ConfigurationSchema.physics, of: configuration, "physics")
        return lines.joined(separator: "\n")
    }

    @Test(arguments: Preset.all)
    func theDocumentCarriesThePresetsValues(preset: Preset) throws {
        let url = Self.root.appendingPathComponent("docs/presets/\(preset.name).md")
        let expected = "\n" + Self.tables(preset) + "\n"
        var document = try String(contentsOf: url, encoding: .utf8)
        let start = document.range(of: Self.begin(preset.name))
        if Self.writeAnew {
            if let start, let stop = document.range(of: Self.end, range: start.upperBound..<document.endIndex) {
                document.replaceSubrange(start.upperBound..<stop.lowerBound, with: expected)
            } else {
                document +=
                    "\n## Values\n\nEvery field of the preset, as `preset show \(preset.name)` writes it "
                    + "(docs/PRESETS.md; the fields' meanings: docs/PROTOCOL.md, \"configure\").\n\n"
                    + Self.begin(preset.name) + expected + Self.end + "\n"
            }
            try Data(document.utf8).write(to: url)
        }
        let current = try String(contentsOf: url, encoding: .utf8)
        let begin = try #require(current.range(of: Self.begin(preset.name)), "no \(Self.begin(preset.name))")
        let stop = try #require(current.range(of: Self.end, range: begin.upperBound..<current.endIndex))
        #expect(
            String(current[begin.upperBound..<stop.lowerBound]) == expected,
            "docs/presets/\(preset.name).md's values differ from Preset.\(preset.name); if the preset is right, run REFRESHKIT_WRITE_FIXTURES=1 swift test --filter PresetDocument"
        )
    }
}
