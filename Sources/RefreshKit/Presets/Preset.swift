/// A named configuration that reproduces one seed library's documented behaviour and defaults.
public struct Preset: Hashable, Sendable {
    public var name: String
    /// One line for people: what the preset imitates.
    public var summary: String
    public var configuration: SessionConfiguration

    public init(name: String, summary: String, configuration: SessionConfiguration) {
        self.name = name
        self.summary = summary
        self.configuration = configuration
    }

    /// Every preset, the default (`ios`) first.
    public static let all: [Preset] = [.ios]

    /// The names of every preset, the default first.
    public static var names: [String] { all.map(\.name) }

    /// The preset called `name`, if any.
    public static func named(_ name: String) -> Preset? { all.first { $0.name == name } }

    /// UIRefreshControl-like: pull the top to refresh, load more at the bottom when it comes into view.
    public static let ios = Preset(
        name: "ios",
        summary: "UIRefreshControl-like refresh on top, auto load-more at the bottom",
        configuration: SessionConfiguration(edges: [
            .top: EdgeConfiguration(role: .refresh, triggerDistance: 100, restingInset: 60),
            .bottom: EdgeConfiguration(
                role: .loadMore, triggerDistance: 60, restingInset: 60, trigger: .onReachEdge, height: 60),
        ])
    )
}
