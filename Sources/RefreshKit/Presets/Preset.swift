/// A named configuration: one of the seeds, which reproduce a seed library's documented behaviour and
/// defaults, or an app's own (a preset file, docs/PRESETS.md, or a value made in Swift and registered in a
/// ``PresetCatalogue``).
public struct Preset: Hashable, Sendable {
    /// The preset's name, as `hello.preset` and `configure.preset` name it: 1 to 64 characters of
    /// `A`–`Z`, `a`–`z`, `0`–`9`, `_` and `-`.
    public var name: String
    /// The library the preset imitates, when it imitates one.
    public var library: PresetLibrary?
    /// One line for people: what the preset imitates.
    public var summary: String
    /// Every edge, the insets, the feed and the physics.
    public var configuration: ListConfiguration {
        didSet { (sharedConfiguration, sharedEdges) = Self.share(configuration) }
    }
    /// The configuration, held once for every session started on this preset (``SharedListConfiguration``).
    private(set) var sharedConfiguration: SharedListConfiguration
    /// The edges' configurations, each held once for every session started on this preset
    /// (``SharedEdgeConfiguration``), in ``Edge/allCases`` order.
    private(set) var sharedEdges: [SharedEdgeConfiguration] = []

    public init(name: String, library: PresetLibrary? = nil, summary: String = "", configuration: ListConfiguration) {
        self.name = name
        self.library = library
        self.summary = summary
        // The library's event rules travel with the configuration, which a model keeps (docs/SEEDS.md, "Each
        // library's events").
        var configuration = configuration
        if configuration.library == nil { configuration.library = library?.dialect }
        self.configuration = configuration
        (sharedConfiguration, sharedEdges) = Self.share(configuration)
    }

    /// The configuration of `edge`, as every control started on this preset holds it.
    func sharedEdge(_ edge: Edge) -> SharedEdgeConfiguration {
        sharedEdges[Edge.allCases.firstIndex(of: edge)!]
    }

    private static func share(_ configuration: ListConfiguration)
        -> (SharedListConfiguration, [SharedEdgeConfiguration])
    {
        (SharedListConfiguration(configuration), Edge.allCases.map { SharedEdgeConfiguration(configuration.edge($0)) })
    }

    /// Every seed preset, the default (`ios`) first.
    public static let all: [Preset] = [.ios, .jh, .ht, .gv, .ms, .iq]

    /// The names of every seed preset, the default first.
    public static var names: [String] { all.map(\.name) }

    /// The seed preset called `name`, if any.
    public static func named(_ name: String) -> Preset? { all.first { $0.name == name } }
}
