/// How many decimals the server writes a kind of number with: the value rounded to `10^−decimals`
/// (``JSONWriter/fixed(_:_:)``), and compared at that precision when a delta decides what changed
/// (``WrittenNumber``), so that a change the text would not show is never sent. PROTOCOL.md states them where
/// the page depends on them ("delta": lengths have at most 3 decimals; "frame": a curve's numbers 6).
///
/// Changing one changes the bytes of every frame and delta (and of a trace's digest), so the golden fixtures in
/// `web/test/fixtures/` change with it.
struct WirePrecision: Hashable, Sendable {
    /// Decimal places written.
    let decimals: Int

    /// A time, in milliseconds (`t`, `t0`, `t1`, `serverT`): 3 decimals, the microsecond, which is exactly the
    /// engine's clock (`Timestamp` counts whole microseconds), so a time is never rounded.
    static var time: WirePrecision { WirePrecision(decimals: 3) }

    /// A length in CSS px (offsets, sizes, insets, rectangles, `distance`, `x0`, `target`, `rowHeight`):
    /// 3 decimals, 1/1000 px, far below a device pixel (1/4 CSS px at a device pixel ratio of 4). The delta's
    /// follow rule counts in these thousandths (PROTOCOL.md, "delta"; js/delta.js's `SCALE`).
    static var length: WirePrecision { WirePrecision(decimals: 3) }

    /// A velocity in px/s (`velocity`, `v0`): 3 decimals, 1/1000 px/s, under 1/1000 px of drift over a second of
    /// extrapolation; an edge's `velocity` follows the frame's by the follow rule, so both are written alike.
    static var velocity: WirePrecision { WirePrecision(decimals: 3) }

    /// A fraction or a ratio (an edge's `progress` and `scale`): 6 decimals, so the length it stands for
    /// (progress × trigger distance, scale × view height) is within a length's 1/1000 px for any trigger
    /// distance or height up to 1 000 px.
    static var fraction: WirePrecision { WirePrecision(decimals: 6) }

    /// A duration in seconds (a cycle's `duration` and `delay`, an exit's `duration`): 6 decimals, the
    /// microsecond, the engine clock's resolution.
    static var duration: WirePrecision { WirePrecision(decimals: 6) }

    /// A physical constant of a motion segment (a decay's `k` in 1/s; a spring's `mass`, `stiffness`,
    /// `damping`): 6 decimals. UIScrollView's normal deceleration, `k = 1000·ln 0.998 ≈ −2.002003`, is then off
    /// by 1.6·10⁻⁷ of itself, and a fling at 8 000 px/s, which travels about 4 000 px, ends within 1/1000 px of
    /// the engine's rest.
    static var motionConstant: WirePrecision { WirePrecision(decimals: 6) }

    /// A control point of a timing curve (`curve: [x1, y1, x2, y2]`): 6 decimals, as PROTOCOL.md ("frame")
    /// says; Core Animation's and CSS's named curves have at most 3 (`[0.42, 0, 0.58, 1]`).
    static var curvePoint: WirePrecision { WirePrecision(decimals: 6) }

    /// An event's `value`: a count, a cycle index or the pull's progress, so a fraction's 6 decimals.
    static var eventValue: WirePrecision { WirePrecision(decimals: 6) }
}
