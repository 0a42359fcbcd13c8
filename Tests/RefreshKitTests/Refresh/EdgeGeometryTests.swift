import Testing

@testable import RefreshKit

/// JHPullToRefreshKit's anchors and GVRefreshControl's view behaviours are two libraries' rules for the same
/// view, independent of each other: `anchored` places the view by the anchor and never scales it (docs/SEEDS.md
/// §1.3), GV's behaviours ignore the anchor (§4.2).
@Suite struct EdgeGeometryTests {
    static let viewport = Size(width: 390, height: 844)

    static func geometry(
        _ behaviour: EdgeConfiguration.ViewBehaviour, anchor: EdgeConfiguration.Anchor, distance: Double,
        height: Double = 70, presentation: EdgeConfiguration.Presentation = .slideDown, baseInset: Double = 0
    ) -> EdgeGeometry {
        var configuration = Preset.jh.configuration.edge(.top)
        (configuration.viewBehaviour, configuration.anchor, configuration.height) = (behaviour, anchor, height)
        configuration.presentation = presentation
        return EdgeGeometry(
            edge: .top, configuration: configuration, distance: distance, viewport: viewport, baseInset: baseInset)
    }

    /// JH's numbers: a 70 px control pulled 100 px stretches over the gap; its view sits at 0, 15 or 30.
    @Test(arguments: [(EdgeConfiguration.Anchor.top, 0.0), (.middle, 15), (.bottom, 30)])
    func anAnchoredViewSitsInTheGapUnscaled(anchor: EdgeConfiguration.Anchor, y: Double) {
        let pulled = Self.geometry(.anchored, anchor: anchor, distance: 100)
        #expect(pulled.control == Rect(x: 0, y: 0, width: 390, height: 100))
        #expect(pulled.view == Rect(x: 0, y: y, width: 390, height: 70))
        #expect(pulled.scale == 1)
        // Short of the height the control is not stretched: the view rides on the content, whole.
        let half = Self.geometry(.anchored, anchor: anchor, distance: 35)
        #expect(half.view == Rect(x: 0, y: -35, width: 390, height: 70) && half.scale == 1)
        // Behind the content (`background`), pinned to the base line.
        let behind = Self.geometry(.anchored, anchor: anchor, distance: 35, presentation: .background, baseInset: 20)
        #expect(behind.view.origin.y == 20 && behind.scale == 1)
    }

    /// The `jh` preset places its view by its anchor: the anchor is not ignored, and nothing scales it.
    @Test func theJHPresetsViewFollowsItsAnchor() {
        var configuration = Preset.jh.configuration.edge(.top)
        #expect(configuration.viewBehaviour == .anchored)
        configuration.anchor = .bottom
        let geometry = EdgeGeometry(
            edge: .top, configuration: configuration, distance: 100, viewport: Self.viewport, baseInset: 0)
        #expect(geometry.view.origin.y == 40 && geometry.scale == 1)
    }

    /// GV's behaviours come out the same whatever the anchor says.
    @Test(arguments: [EdgeConfiguration.ViewBehaviour.stretches, .fixedTop, .fixedBottom], [35.0, 100, 150])
    func gvBehavioursIgnoreTheAnchor(behaviour: EdgeConfiguration.ViewBehaviour, distance: Double) {
        let middle = Self.geometry(behaviour, anchor: .middle, distance: distance, height: 100)
        for anchor in [EdgeConfiguration.Anchor.top, .bottom] {
            #expect(Self.geometry(behaviour, anchor: anchor, distance: distance, height: 100) == middle)
        }
    }

    /// `stretches` centres the view on the gap and scales it by the unclamped pull: it fills the gap.
    @Test func stretchesFillsTheGap() {
        let geometry = Self.geometry(.stretches, anchor: .top, distance: 150, height: 100)
        #expect(geometry.scale == 1.5)
        #expect(geometry.view.origin.y + geometry.view.size.height / 2 == 75)
    }
}
