import RefreshKit
import Testing

/// The page's rubber band against the engine's: web/test/fixtures/rubberBand.json holds ``RubberBand`` (the
/// pull, its inverse, clamp and unclamp) and ``ScrollBounds`` as the engine computes them over a grid that
/// includes the degenerate inputs (coefficients and dimensions that are not finite and positive, bounds in the
/// wrong order, infinities, NaN), and web/test/rubberBand.test.js requires web/js/rubberBand.js to give the
/// same doubles.
@Suite struct RubberBandFixtureTests {
    static let coefficients: [Double] = [0.55, 0.52, 0.3, 1, 0, -0.2, .infinity, .nan]
    static let dimensions: [Double] = [844, 390, 960, 1, 0, -5, .infinity, .nan]
    static let pulls: [Double] = [
        0, 0.001, 5, 10, -37, 100, 200, 400, 960, -4000, 1e6, 1e300, .infinity, -.infinity, .nan,
    ]
    static let offsets: [Double] = [0, 1, 54, -100, 300, 843.9, 844, 900, -1e9, .infinity, .nan]
    static let ranges: [(Double, Double)] = [
        (0, 1000), (-60, 740), (0, 0), (10, 0), (-.infinity, .infinity), (.nan, 500), (0, .nan), (-.infinity, 0),
    ]
    static let values: [Double] = [
        -1e300, -400, -150, -20, 0, 5, 300, 760, 1000, 1150, 1400, .infinity, -.infinity, .nan,
    ]

    @Test func thePageFixtureOfTheRubberBandIsWhatTheEngineComputes() throws {
        var pull: [String] = []
        var inverse: [String] = []
        for c in Self.coefficients {
            let band = RubberBand(coefficient: c)
            for d in Self.dimensions {
                for x in Self.pulls {
                    pull.append(PageFixture.numbers([x, c, d, band.offset(forPull: x, dimension: d)]))
                }
                for b in Self.offsets {
                    inverse.append(PageFixture.numbers([b, c, d, band.pull(forOffset: b, dimension: d)]))
                }
            }
        }
        var clamp: [String] = []
        var unclamp: [String] = []
        for c in [0.55, 0.52] {
            let band = RubberBand(coefficient: c)
            for (lower, upper) in Self.ranges {
                for d in [800.0, 700] {
                    for v in Self.values {
                        let shown = band.clamp(v, lower: lower, upper: upper, dimension: d)
                        clamp.append(PageFixture.numbers([v, lower, upper, c, d, shown]))
                        let raw = band.unclamp(v, lower: lower, upper: upper, dimension: d)
                        unclamp.append(PageFixture.numbers([v, lower, upper, c, d, raw]))
                    }
                }
            }
        }
        // [viewport w, h, content w, h, insets top, left, bottom, right, vertical lower, upper, horizontal lower, upper]
        var bounds: [String] = []
        let viewports = [Size(width: 390, height: 844), Size(width: 1280, height: 800)]
        let contents = [Size(width: 390, height: 7200), Size(width: 200, height: 300), Size(width: 2000, height: 844)]
        let insets = [
            EdgeInsets(), EdgeInsets(top: 60, left: 0, bottom: 44, right: 0),
            EdgeInsets(top: 0.5, left: 30, bottom: 0, right: 45.25),
        ]
        for viewport in viewports {
            for content in contents {
                for inset in insets {
                    let vertical = ScrollBounds(axis: .vertical, viewport: viewport, content: content, insets: inset)
                    let horizontal = ScrollBounds(
                        axis: .horizontal, viewport: viewport, content: content, insets: inset)
                    bounds.append(
                        PageFixture.numbers([
                            viewport.width, viewport.height, content.width, content.height, inset.top, inset.left,
                            inset.bottom, inset.right, vertical.lower, vertical.upper, horizontal.lower,
                            horizontal.upper,
                        ]))
                }
            }
        }
        #expect(pull.count == 8 * 8 * 15 && clamp.count == 2 * 8 * 2 * 14)
        let text = PageFixture.object([
            ("pull", pull), ("inverse", inverse), ("clamp", clamp), ("unclamp", unclamp), ("bounds", bounds),
        ])
        try PageFixture.check(text, named: "rubberBand.json")
    }
}
