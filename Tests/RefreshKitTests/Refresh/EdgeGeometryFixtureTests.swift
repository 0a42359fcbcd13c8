import RefreshKit
import Testing

/// The page's edge geometry against the engine's: web/test/fixtures/edgeGeometry.json holds
/// - `geometry`: ``EdgeGeometry`` (the control and view rectangles and the view's scale) for every edge,
///   presentation, anchor and view behaviour, at pulls around the control's height, with NaN and infinity;
/// - `configurations` and `frames`: every seed preset's edges as its frames carry them through a pull at the
///   top and one past the end (state, distance, progress, rectangles, scale, with the frame's inset on that
///   edge), beside the configuration fields the page reads;
/// and web/test/edgeGeometry.test.js requires the page's port (web/js/edgeFollow.js: `edgeGeometry`,
/// `progressOf`, `layerOf`, which the page uses to move an edge with a predicted offset) to give the same
/// numbers.
@Suite struct EdgeGeometryFixtureTests {
    static let viewport = Size(width: 390, height: 844)

    /// `[edge, presentation, anchor, viewBehaviour, height, baseInset, distance, control, view, scale]`.
    static func geometryRows() -> [String] {
        var rows: [String] = []
        var index = 0
        for edge in Edge.allCases {
            for presentation in EdgeConfiguration.Presentation.allCases {
                for anchor in EdgeConfiguration.Anchor.allCases {
                    for behaviour in EdgeConfiguration.ViewBehaviour.allCases {
                        let height = [60, 44.5, 100][index % 3]
                        let baseInset = [0, 34, 60.5][index / 3 % 3]
                        index += 1
                        var configuration = EdgeConfiguration()
                        configuration.presentation = presentation
                        configuration.anchor = anchor
                        configuration.viewBehaviour = behaviour
                        configuration.height = height
                        for distance in [-20, 0, 30, height, height.nextUp, 150.75, .infinity, .nan] {
                            let geometry = EdgeGeometry(
                                edge: edge, configuration: configuration, distance: distance, viewport: viewport,
                                baseInset: baseInset)
                            let names = [edge.rawValue, presentation.rawValue, anchor.rawValue, behaviour.rawValue]
                            let numbers = [height, baseInset, distance].map(PageFixture.number)
                            let results = [
                                PageFixture.rect(geometry.control), PageFixture.rect(geometry.view),
                                PageFixture.number(geometry.scale),
                            ]
                            rows.append(
                                "[" + (names.map { "\"\($0)\"" } + numbers + results).joined(separator: ",") + "]")
                        }
                    }
                }
            }
        }
        return rows
    }

    /// `{"preset","edge",…}`: the fields of the edge's configuration that the page's port reads, named as on
    /// the wire (welcome.config), and `holdsInsetThroughExit`, which the wire does not carry: whether the
    /// control keeps its layer while `finishing` (``InsetAnimation/returnsAfterExit``, JH's).
    static func configurationRow(preset: String, edge: Edge, _ c: EdgeConfiguration) -> String {
        let strings = [
            ("preset", preset), ("edge", edge.rawValue), ("role", c.role.rawValue), ("trigger", c.trigger.rawValue),
            ("presentation", c.presentation.rawValue), ("anchor", c.anchor.rawValue),
            ("viewBehaviour", c.viewBehaviour.rawValue),
        ]
        let numbers = [
            ("triggerDistance", c.triggerDistance), ("preload", c.preload), ("promptingInset", c.promptingInset),
            ("restingInset", c.restingInset), ("height", c.height),
        ]
        let members =
            strings.map { "\"\($0.0)\":\"\($0.1)\"" } + numbers.map { "\"\($0.0)\":\(PageFixture.number($0.1))" }
            + ["\"holdsInsetThroughExit\":\(c.insetAnimation?.returnsAfterExit == true)"]
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `[configuration index, state, inset, distance, progress, control, view, scale]` for the driven edge: the
    /// first frame of every state, and every third frame that shows the edge otherwise than the one before
    /// (the file stays small); `inset` is the frame's combined inset on that edge (the page's `frame.insets`).
    static func frameRows(_ frames: [Frame], edge: Edge, configuration: Int) -> [String] {
        var rows: [String] = []
        var (previous, state, changed) = ("", EdgeState?.none, 0)
        for frame in frames {
            guard let entry = frame.edges.first(where: { $0.edge == edge }) else { continue }
            let numbers = [frame.insets[edge], entry.distance, entry.progress].map(PageFixture.number)
            let rest = [PageFixture.rect(entry.control), PageFixture.rect(entry.view), PageFixture.number(entry.scale)]
            let row = "[\(configuration),\"\(entry.state.rawValue)\"," + (numbers + rest).joined(separator: ",") + "]"
            if row == previous { continue }
            previous = row
            changed += 1
            if entry.state != state || changed % 3 == 0 { rows.append(row) }
            state = entry.state
        }
        return rows
    }

    /// A run: `preset` with `patch` applied, `edge` pulled by a drag of `pull` px (positive pulls the top),
    /// released, until the model rests; its configuration row is appended to `configurations`.
    static func run(
        _ label: String, preset: String, patch: ConfigurationPatch? = nil, edge: Edge, pull: Double,
        configurations: inout [String]
    ) throws -> [String] {
        var driver = try ModelDriver(preset: preset, viewport: viewport)
        if let patch { try driver.apply(.configure(patch)) }
        if edge == .bottom { try driver.command(.scrollToEdge, edge: .bottom, animated: false) }
        driver.settle(limitMs: 8_000)
        driver.clearLog()
        try driver.drag(dy: pull, steps: Int(abs(pull) / 20))
        driver.settle(limitMs: 8_000)
        configurations.append(configurationRow(preset: label, edge: edge, driver.model.control(edge).configuration))
        return frameRows(driver.frames, edge: edge, configuration: configurations.count - 1)
    }

    @Test func thePageFixtureOfEdgeGeometryIsWhatTheEngineComputes() throws {
        let geometry = Self.geometryRows()
        #expect(geometry.count == 4 * 2 * 3 * EdgeConfiguration.ViewBehaviour.allCases.count * 8)
        var configurations: [String] = []
        var frames: [String] = []
        // Each seed preset: a pull at the top held past the trigger and released, to the end of the refresh;
        // a pull past the end, released, to the end of the load.
        for preset in ["ios", "jh", "ht", "gv", "ms", "iq"] {
            frames += try Self.run(preset, preset: preset, edge: .top, pull: 520, configurations: &configurations)
            frames += try Self.run(preset, preset: preset, edge: .bottom, pull: -360, configurations: &configurations)
        }
        // What no preset has: an app inset under a control, a footer with a prompt started by a release and
        // `preload`, a top control glued to the content with the view at its top.
        var footer = ConfigurationPatch.EdgePatch()
        footer[\.trigger] = .onRelease
        footer[\.promptingInset] = 50
        footer[\.preload] = 10
        footer[\.triggerDistance] = 70
        footer[\.presentation] = .background
        footer[\.anchor] = .bottom
        footer[\.viewBehaviour] = .stretches
        frames += try Self.run(
            "ht, a prompting footer", preset: "ht",
            patch: ConfigurationPatch(insets: EdgeInsets(top: 44, bottom: 34), edges: [.bottom: footer]), edge: .bottom,
            pull: -400, configurations: &configurations)
        var header = ConfigurationPatch.EdgePatch()
        header[\.trigger] = .onRelease
        header[\.preload] = 20
        header[\.height] = 80
        header[\.presentation] = .slideDown
        header[\.anchor] = .top
        header[\.viewBehaviour] = .fixedTop
        frames += try Self.run(
            "ios, a header under an app inset", preset: "ios",
            patch: ConfigurationPatch(insets: EdgeInsets(top: 44, bottom: 34), edges: [.top: header]), edge: .top,
            pull: 520, configurations: &configurations)
        let text = PageFixture.object([("geometry", geometry), ("configurations", configurations), ("frames", frames)])
        try PageFixture.check(text, named: "edgeGeometry.json")
    }
}
