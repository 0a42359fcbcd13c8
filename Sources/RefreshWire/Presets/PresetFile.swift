import RefreshKit

/// A preset as a file (docs/PRESETS.md): `{"name", "base"?, "library"?, "summary"?, "config"}`, where
/// `config` has the shape of `welcome.config` and every value is checked by `ConfigurationSchema`.
///
/// Reading lists every problem, each naming its field and what the field takes, and refuses the file whole;
/// writing gives a complete file (every field) that reads back as the same preset.
public enum PresetFile {
    /// The largest preset file read, in bytes.
    public static let maxBytes = 256 * 1024

    /// The preset `text` describes. A field the file leaves out comes from its `base` preset (looked up in
    /// `presets`); without a base, every field is required.
    /// - Throws: `PresetProblems` listing every problem, in the file's order.
    public static func read(_ text: [UInt8], presets: PresetCatalogue = .seeds) throws(PresetProblems) -> Preset {
        guard text.count <= maxBytes else {
            throw PresetProblems(["the file is \(text.count) bytes; a preset file is at most \(maxBytes)"])
        }
        let tree: JSONTree
        do throws(WireError) {
            tree = try JSONTree.read(text)
        } catch {
            throw PresetProblems(["not JSON: \(error.message)"])
        }
        return try read(tree, presets: presets)
    }

    /// A page's `configure.presetFile`: the preset, or an error listing every problem, one a line (refused whole).
    static func read(_ tree: JSONTree, presets: PresetCatalogue, ref: String) throws(WireError) -> Preset {
        do throws(PresetProblems) {
            return try read(tree, presets: presets)
        } catch {
            let count = error.problems.count
            throw WireError(
                code: .badField,
                message: "configure.presetFile is refused (\(count) problem\(count == 1 ? "" : "s")): "
                    + error.problems.joined(separator: "\n"), ref: ref)
        }
    }

    /// ``read(_:presets:)`` for a file already read as JSON.
    static func read(_ tree: JSONTree, presets: PresetCatalogue) throws(PresetProblems) -> Preset {
        var reader = PresetFileReader(presets: presets)
        guard let preset = reader.preset(tree), reader.problems.isEmpty else {
            throw PresetProblems(reader.problems)
        }
        return preset
    }

    /// `preset` as a complete file: every edge it has, every field, in the schema's order, two spaces deep.
    /// With a `base` (a seed's own name, for a seed), what the schema has no field for (a seed library's
    /// inset animation) comes from it, so the file reads back as the same preset.
    public static func write(_ preset: Preset, base: String? = nil) -> String {
        var buffer: [UInt8] = []
        let strings = [preset.name, preset.summary, preset.library?.name ?? ""]
        let bound = 4096 + preset.configuration.edges.count * 1536 + strings.reduce(0) { $0 + 6 * $1.utf8.count }
        appendJSON(to: &buffer, bound: bound) { w in
            w.literal(#"{"name":"#)
            w.string(preset.name)
            if let base {
                w.literal(#","base":"#)
                w.string(base)
            }
            if let library = preset.library {
                w.literal(#","library":"#)
                w.string(library.name)
            }
            w.literal(#","summary":"#)
            w.string(preset.summary)
            w.literal(#","config":"#)
            ConfigurationJSON.appendConfiguration(preset.configuration, to: &w)
            w.byte(.closeBrace)
        }
        return indented(buffer)
    }

    /// Compact JSON text laid out one member per line, two spaces per level.
    static func indented(_ compact: [UInt8]) -> String {
        var out: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        func newline() {
            out.append(.newline)
            out.append(contentsOf: repeatElement(.space, count: 2 * depth))
        }
        for byte in compact {
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == .backslash {
                    escaped = true
                } else if byte == .quote {
                    inString = false
                }
                continue
            }
            switch byte {
            case .quote:
                inString = true
                out.append(byte)
            case .openBrace, .openBracket:
                out.append(byte)
                depth += 1
                newline()
            case .closeBrace, .closeBracket:
                depth -= 1
                newline()
                out.append(byte)
            case .comma:
                out.append(byte)
                newline()
            case .colon:
                out.append(contentsOf: [.colon, .space])
            default:
                out.append(byte)
            }
        }
        out.append(.newline)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Reads one preset file's tree, noting every problem rather than stopping at the first.
private struct PresetFileReader {
    let presets: PresetCatalogue
    var problems: [String] = []
    /// Whether a missing field is a problem: not when the file names a base, even one that is unknown (its
    /// problem is said once).
    var requiresEveryField = true

    init(presets: PresetCatalogue) {
        self.presets = presets
    }

    static let topKeys = ["name", "base", "library", "summary", "config"]
    static let configKeys = ["edges", "insets", "feed", "physics", "events"]

    mutating func preset(_ tree: JSONTree) -> Preset? {
        guard case .object(let members) = tree else {
            problems.append("a preset file is a JSON object; this one is \(tree.kindName)")
            return nil
        }
        let top = object(members, keys: Self.topKeys, at: "")
        let name = string(top["name"], at: "name", required: true)
        if let name, !ConfigurationFieldKind.isName(name) {
            problems.append("name: '\(name.prefix(80))' is not \(ConfigurationFieldKind.name.expectation)")
        }
        var base: Preset?
        requiresEveryField = top["base"] == nil
        if let baseName = string(top["base"], at: "base", required: false) {
            base = presets.named(baseName)
            if base == nil {
                problems.append(
                    "base: no preset named '\(baseName.prefix(80))'; known: \(presets.names.joined(separator: ", "))")
            }
        }
        let library = string(top["library"], at: "library", required: false)
        let summary = string(top["summary"], at: "summary", required: false)
        var configuration = base?.configuration ?? ListConfiguration(edges: [:])
        switch top["config"] {
        case .object(let config)?:
            read(config, into: &configuration, base: base)
        case let other?:
            problems.append("config must be an object; got \(other.kindName)")
        case nil:
            problems.append("config is required")
        }
        guard let name else { return nil }
        let libraryValue =
            library.map { given in given == base?.library?.name ? base?.library : PresetLibrary(name: given) }
            ?? base?.library
        return Preset(
            name: name, library: libraryValue, summary: summary ?? base?.summary ?? "", configuration: configuration)
    }

    private mutating func read(
        _ config: [(key: String, value: JSONTree)], into configuration: inout ListConfiguration, base: Preset?
    ) {
        let parts = object(config, keys: Self.configKeys, at: "")
        if let edges = objectMembers(parts["edges"], at: "edges") {
            for (key, value) in edges {
                guard let edge = Edge(rawValue: key) else {
                    problems.append(
                        "edges.\(key.prefix(80)): not an edge; expected one of \(Edge.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                    continue
                }
                let scope = "edges.\(edge.rawValue)"
                guard let fields = objectMembers(value, at: scope) else { continue }
                let inherited = base?.configuration.edges[edge]
                var edgeConfiguration = inherited ?? .none
                read(
                    fields, ConfigurationSchema.edge, into: &edgeConfiguration, scope: scope,
                    complete: inherited == nil && (requiresEveryField || base != nil))
                configuration.edges[edge] = edgeConfiguration
            }
        } else if requiresEveryField, parts["edges"] == nil {
            problems.append("edges is required (an object, one member per edge with a control)")
        }
        read(parts["insets"], ConfigurationSchema.insets, into: &configuration.insets, scope: "insets")
        read(parts["feed"], ConfigurationSchema.feed, into: &configuration.feed, scope: "feed")
        read(parts["physics"], ConfigurationSchema.physics, into: &configuration, scope: "physics")
        readEvents(parts["events"], into: &configuration)
    }

    /// `events`: whose names the events carry (optional; a file without it keeps its base's choice).
    private mutating func readEvents(_ tree: JSONTree?, into configuration: inout ListConfiguration) {
        guard let tree else { return }
        let choices = ListConfiguration.EventNaming.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let given) = tree, let naming = ListConfiguration.EventNaming(rawValue: given) else {
            problems.append("events must be one of \(choices)")
            return
        }
        guard naming == .refreshkit || configuration.library != nil else {
            problems.append("events: library needs a base that imitates a library (jh, ht, gv, ms, iq or ios)")
            return
        }
        configuration.events = naming == .refreshkit ? nil : naming  // (nil is RefreshKit's)
    }

    /// One part that is not an edge (insets, feed, physics): required without a base.
    private mutating func read<Root>(
        _ tree: JSONTree?, _ fields: [ConfigurationField<Root>], into root: inout Root, scope: String
    ) {
        guard let tree else {
            if requiresEveryField { problems.append("\(scope) is required (or a base to take it from)") }
            return
        }
        guard let members = objectMembers(tree, at: scope) else { return }
        read(members, fields, into: &root, scope: scope, complete: requiresEveryField)
    }

    /// The members of one part, each checked against its field (kind, then range); an unknown key, and when
    /// `complete`, a missing field, are problems too.
    private mutating func read<Root>(
        _ members: [(key: String, value: JSONTree)], _ fields: [ConfigurationField<Root>], into root: inout Root,
        scope: String, complete: Bool
    ) {
        let given = object(members, keys: fields.map(\.name), at: "\(scope).")
        for field in fields {
            let place = "\(scope).\(field.name)"
            guard let tree = given[field.name] else {
                if complete { problems.append("\(place) is required: \(field.kind.expectation)") }
                continue
            }
            guard let value = Self.value(tree, of: field.kind) else {
                problems.append("\(place) must be \(field.kind.expectation); got \(tree.kindName)")
                continue
            }
            do throws(ListModelError) {
                try field.check(value, in: scope)
                field.store(value, in: &root)
            } catch {
                problems.append(error.message)
            }
        }
    }

    /// `tree` as a value of `kind`, before its range is checked; nil when it is of another kind.
    static func value(_ tree: JSONTree, of kind: ConfigurationFieldKind) -> ConfigurationValue? {
        switch (kind, tree) {
        case (.number, .number(let number)): .number(number)
        case (.integer, .number(let number)):
            number.rounded(.towardZero) == number && abs(number) <= 9_007_199_254_740_992 ? .integer(Int(number)) : nil
        case (.bool, .bool(let bool)): .bool(bool)
        case (.enumeration, .string(let name)), (.name, .string(let name)): .name(name)
        default: nil
        }
    }

    /// The members of `members` by key, noting every key not among `keys` (`prefix` places it).
    private mutating func object(_ members: [(key: String, value: JSONTree)], keys: [String], at prefix: String)
        -> [String: JSONTree]
    {
        var found: [String: JSONTree] = [:]
        for (key, value) in members {
            guard keys.contains(key) else {
                problems.append(
                    "\(prefix)\(key.prefix(80)): unknown key; expected one of \(keys.joined(separator: ", "))")
                continue
            }
            found[key] = value
        }
        return found
    }

    /// The members of an object, or nil (and a problem) when `tree` is something else; nil when absent.
    private mutating func objectMembers(_ tree: JSONTree?, at place: String) -> [(key: String, value: JSONTree)]? {
        guard let tree else { return nil }
        guard case .object(let members) = tree else {
            problems.append("\(place) must be an object; got \(tree.kindName)")
            return nil
        }
        return members
    }

    /// A string member of at most 256 characters; a problem when it is something else, or missing and `required`.
    private mutating func string(_ tree: JSONTree?, at place: String, required: Bool) -> String? {
        switch tree {
        case .string(let string)? where string.count <= 256:
            return string
        case .string?:
            problems.append("\(place) must be at most 256 characters long")
        case let other?:
            problems.append("\(place) must be a string; got \(other.kindName)")
        case nil:
            if required { problems.append("\(place) is required") }
        }
        return nil
    }
}
