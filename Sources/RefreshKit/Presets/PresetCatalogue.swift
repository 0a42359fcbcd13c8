/// The presets a host offers: the seeds, then the ones it registered (preset files, an app's own values),
/// in that order. A value the host owns and hands to what needs it; the engine keeps no list of its own
/// beyond the seeds (``Preset/all``).
///
/// ```swift
/// var catalogue = PresetCatalogue.seeds
/// var configuration = Preset.ios.configuration
/// configuration.edges[.top]?.triggerDistance = 120
/// configuration.edges[.top]?.control = "bubbles"
/// try catalogue.register(Preset(name: "mine", summary: "ios, pulled further", configuration: configuration))
/// ```
public struct PresetCatalogue: Hashable, Sendable {
    /// Every preset, the seeds first, then the registered ones in the order they came.
    public private(set) var presets: [Preset]

    /// A catalogue of `presets` (the seeds unless told).
    public init(_ presets: [Preset] = Preset.all) {
        self.presets = presets
    }

    /// The seed presets alone.
    public static let seeds = PresetCatalogue()

    /// The names of every preset, in the catalogue's order.
    public var names: [String] { presets.map(\.name) }

    /// The preset called `name`, if any.
    public func named(_ name: String) -> Preset? { presets.first { $0.name == name } }

    /// Adds `preset` after the others, or in the place of the preset of the same name (a seed's included),
    /// once its values pass ``ConfigurationSchema``. A name that is not one (1 to 64 characters of `A`–`Z`,
    /// `a`–`z`, `0`–`9`, `_`, `-`) is refused too; every problem is listed, and nothing changes then.
    public mutating func register(_ preset: Preset) throws(PresetProblems) {
        var problems = ConfigurationSchema.problems(in: preset.configuration)
        if !ConfigurationFieldKind.isName(preset.name) {
            problems.insert(
                "name: '\(preset.name.prefix(80))' is not \(ConfigurationFieldKind.name.expectation)", at: 0)
        }
        guard problems.isEmpty else { throw PresetProblems(problems) }
        if let index = presets.firstIndex(where: { $0.name == preset.name }) {
            presets[index] = preset
        } else {
            presets.append(preset)
        }
    }
}

/// Everything wrong with a preset (a file, or a value given to ``PresetCatalogue/register(_:)``), each
/// naming its field and what it takes (`edges.top.triggerDistance must be between 1 and 10000 px, got 20000`).
public struct PresetProblems: Error, Hashable, Sendable, CustomStringConvertible {
    /// One line per problem, in the schema's order.
    public var problems: [String]

    public init(_ problems: [String]) {
        self.problems = problems
    }

    public var description: String { problems.joined(separator: "\n") }
}

extension ConfigurationSchema {
    /// Every value of `configuration` the schema refuses, each named by its place (`edges.top.height …`),
    /// in the wire's order; empty when every value is in range.
    public static func problems(in configuration: ListConfiguration) -> [String] {
        var problems: [String] = []
        func check<Root>(_ fields: [ConfigurationField<Root>], of root: Root, in scope: String) {
            for field in fields {
                do throws(ListModelError) {
                    try field.check(field.value(in: root), in: scope)
                } catch {
                    problems.append(error.message)
                }
            }
        }
        for side in Edge.allCases {
            guard let configuration = configuration.edges[side] else { continue }
            check(edge, of: configuration, in: "edges.\(side.rawValue)")
        }
        check(insets, of: configuration.insets, in: "insets")
        check(feed, of: configuration.feed, in: "feed")
        check(physics, of: configuration, in: "physics")
        return problems
    }
}

extension PresetCatalogue {
    /// `input` with a `configure`'s preset name looked up here (``ConfigurationPatch/presetValue``), so that
    /// it may name any preset of the catalogue; every other input as it is.
    public func resolving(_ input: Input) -> Input {
        guard case .configure(var patch) = input, patch.presetValue == nil, let name = patch.preset,
            let preset = named(name)
        else { return input }
        patch.presetValue = preset
        return .configure(patch)
    }
}
