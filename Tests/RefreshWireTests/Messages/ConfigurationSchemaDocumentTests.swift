import Foundation
import RefreshKit
import Testing

@testable import RefreshWire

/// ``ConfigurationSchema`` is the one description of the configurable fields, and what is written about them
/// elsewhere follows it: docs/PROTOCOL.md's configure table, the page's fixture of `welcome.schema`, and the
/// wire's `configure` and `config`, field by field.
@Suite struct ConfigurationSchemaDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..")
    static let writeAnew = ProcessInfo.processInfo.environment["REFRESHKIT_WRITE_FIXTURES"] != nil
    static let begin =
        "<!-- configure-fields: ConfigurationSchema as a table, kept equal by ConfigurationSchemaDocumentTests -->"
    static let end = "<!-- /configure-fields -->"

    /// The table docs/PROTOCOL.md shows between ``begin`` and ``end``: every field, its values, its meaning.
    static func table() -> String {
        var lines = ["| field | values | meaning |", "|---|---|---|"]
        func add<Root>(_ fields: [ConfigurationField<Root>], _ scope: String) {
            for field in fields {
                let meaning = field.meaning.replacingOccurrences(of: "|", with: "\\|")
                lines.append("| `\(scope).\(field.name)` | \(values(field.kind)) | \(meaning) |")
            }
        }
        add(ConfigurationSchema.edge, "edges.<edge>")
        add(ConfigurationSchema.insets, "insets")
        add(ConfigurationSchema.feed, "feed")
        add(ConfigurationSchema.physics, "physics")
        return lines.joined(separator: "\n")
    }

    private static func values(_ kind: ConfigurationFieldKind) -> String {
        func range(_ rule: NumberRule) -> String {
            "\(NumberRule.format(rule.range.lowerBound))…\(NumberRule.format(rule.range.upperBound))"
                + (rule.unit.map { " \($0.rawValue)" } ?? "")
        }
        return switch kind {
        case .number(let rule): range(rule)
        case .integer(let rule): "integer, \(range(rule))"
        case .bool: "`true` \\| `false`"
        case .enumeration(let names): names.map { "`\($0)`" }.joined(separator: " \\| ")
        case .name: "a name: 1…64 of `A-Z a-z 0-9 _ -`"
        }
    }

    @Test func protocolDocumentsEveryFieldAsTheSchemaSays() throws {
        let url = Self.root.appendingPathComponent("docs/PROTOCOL.md")
        let expected = "\n" + Self.table() + "\n"
        func section(_ document: String) throws -> Range<String.Index> {
            let start = try #require(document.range(of: Self.begin), "docs/PROTOCOL.md has no \(Self.begin)")
            let stop = try #require(document.range(of: Self.end, range: start.upperBound..<document.endIndex))
            return start.upperBound..<stop.lowerBound
        }
        if Self.writeAnew {
            var document = try String(contentsOf: url, encoding: .utf8)
            document.replaceSubrange(try section(document), with: expected)
            try Data(document.utf8).write(to: url)
        }
        let document = try String(contentsOf: url, encoding: .utf8)
        #expect(
            String(document[try section(document)]) == expected,
            "docs/PROTOCOL.md's configure table differs from ConfigurationSchema; if the schema is right, run REFRESHKIT_WRITE_FIXTURES=1 swift test --filter ConfigurationSchemaDocument. The table:\n\(expected)"
        )
    }

    /// web/test/fixtures/schema.json is `welcome.schema` as the encoder writes it: the page's tests build the
    /// panel's editors from it.
    @Test func thePageFixtureIsTheSchemaTheWelcomeCarries() throws {
        let url = Self.root.appendingPathComponent("web/test/fixtures/schema.json")
        let current = String(decoding: ConfigurationJSON.schemaJSON, as: UTF8.self) + "\n"
        if Self.writeAnew { try Data(current.utf8).write(to: url) }
        #expect(
            try String(contentsOf: url, encoding: .utf8) == current,
            "web/test/fixtures/schema.json differs from welcome.schema; if the change is meant, run REFRESHKIT_WRITE_FIXTURES=1 swift test --filter ConfigurationSchemaDocument and node --test web/test/"
        )
        var welcome: [UInt8] = []
        MessageEncoder().encode(
            Welcome(
                session: "s", token: "t", preset: "ios", presets: ["ios"], configuration: Preset.ios.configuration,
                serverTime: .zero), into: &welcome)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(welcome)) as? [String: Any])
        let schema = try #require(object["schema"] as? [String: [[String: Any]]])
        #expect(schema.keys.sorted() == ["edges", "feed", "insets", "physics"])
        #expect(schema["edges"]?.compactMap { $0["name"] as? String } == ConfigurationSchema.edge.map(\.name))
        let td = try #require(schema["edges"]?.first { $0["name"] as? String == "triggerDistance" })
        #expect(td["kind"] as? String == "number" && td["min"] as? Double == 1 && td["max"] as? Double == 10_000)
        #expect(td["unit"] as? String == "px" && td["section"] as? String == "Distances")
    }

    /// Every field, through the wire: a `configure` that sets it to a value other than the preset's is
    /// decoded, applied and written back in `config` with that value.
    @Test func everyFieldTravelsThroughConfigureAndConfig() throws {
        let base = Preset.ios.configuration
        var fields = 0
        func roundTrip<Root>(_ schema: [ConfigurationField<Root>], _ current: Root, _ path: [String]) throws {
            for field in schema {
                let value = Self.anotherValue(field.kind, than: field.value(in: current))
                let json = Self.json(value)
                var object = "{\"\(field.name)\":\(json)}"
                for key in path.reversed() { object = "{\"\(key)\":\(object)}" }
                let message = try decode("{\"type\":\"configure\"," + object.dropFirst())
                guard case .input(.configure(let patch), _) = message else {
                    Issue.record("\(object) decoded as \(message)")
                    continue
                }
                let (applied, _) = try base.applying(patch)
                var buffer: [UInt8] = []
                MessageEncoder().encodeConfig(preset: "ios", configuration: applied, into: &buffer)
                var written = try JSONSerialization.jsonObject(with: Data(buffer)) as? [String: Any]
                written = written?["config"] as? [String: Any]
                for key in path { written = written?[key] as? [String: Any] }
                let back = try #require(written?[field.name], "\(path) \(field.name) is not in config")
                let read: ConfigurationValue? =
                    switch value {
                    case .number: (back as? NSNumber).map { .number($0.doubleValue) }
                    case .integer: (back as? NSNumber).map { .integer($0.intValue) }
                    case .bool: (back as? Bool).map { .bool($0) }
                    case .name: (back as? String).map { .name($0) }
                    }
                #expect(read == value, "\(path).\(field.name): sent \(json), config says \(back)")
                fields += 1
            }
        }
        try roundTrip(ConfigurationSchema.edge, base.edge(.top), ["edges", "top"])
        try roundTrip(ConfigurationSchema.insets, base.insets, ["insets"])
        try roundTrip(ConfigurationSchema.feed, base.feed, ["feed"])
        try roundTrip(ConfigurationSchema.physics, base, ["physics"])
        #expect(fields == ConfigurationSchema.edge.count + 4 + 8 + 4)
    }

    /// A value of `kind` other than `current`: a number's upper bound (or lower, when it is there already),
    /// the other boolean, another name.
    private static func anotherValue(_ kind: ConfigurationFieldKind, than current: ConfigurationValue)
        -> ConfigurationValue
    {
        switch kind {
        case .number(let rule):
            current == .number(rule.range.upperBound) ? .number(rule.range.lowerBound) : .number(rule.range.upperBound)
        case .integer(let rule):
            current == .integer(Int(rule.range.upperBound))
                ? .integer(Int(rule.range.lowerBound)) : .integer(Int(rule.range.upperBound))
        case .bool:
            .bool(current != .bool(true))
        case .enumeration(let names):
            .name(names.first { .name($0) != current }!)
        case .name:
            .name(current == .name("bubbles") ? "my-control_2" : "bubbles")
        }
    }

    private static func json(_ value: ConfigurationValue) -> String {
        switch value {
        case .number(let number): "\(number)"
        case .integer(let integer): "\(integer)"
        case .bool(let bool): "\(bool)"
        case .name(let name): "\"\(name)\""
        }
    }
}
