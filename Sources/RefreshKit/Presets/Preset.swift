/// A named configuration that reproduces one seed library's documented behaviour and defaults.
public struct Preset: Hashable, Sendable {
    public var name: String
    /// One line for people: what the preset imitates.
    public var summary: String
    public var configuration: ListConfiguration

    public init(name: String, summary: String, configuration: ListConfiguration) {
        self.name = name
        self.summary = summary
        self.configuration = configuration
    }

    /// Every preset, the default (`ios`) first.
    public static let all: [Preset] = [.ios, .jh, .ht, .gv, .ms, .iq]

    /// The names of every preset, the default first.
    public static var names: [String] { all.map(\.name) }

    /// The preset called `name`, if any.
    public static func named(_ name: String) -> Preset? { all.first { $0.name == name } }

}
