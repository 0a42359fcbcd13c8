/// Where an edge control and its animation view are, in viewport coordinates, for the presentation,
/// anchor and view behaviour in force. The page draws from these rectangles alone.
///
/// Along the pull axis, positions are measured inward from the edge's base line (the viewport edge plus
/// every inset that is not this control's own):
/// - the control is `height` long, glued to the content edge (`slideDown`) or pinned to the base line
///   (`background`); once the pull exceeds `height` it stretches over the whole gap (JHPullToRefreshKit,
///   docs/SEEDS.md §1.3);
/// - the animation view (`height` long) is placed by one library's rule, the `viewBehaviour`, never both:
///   - `anchored`, JHPullToRefreshKit's: at the top, middle or bottom of the control by its `anchor`, never
///     scaled (docs/SEEDS.md §1.3: the library sets the view's frame or centre, never its size);
///   - GVRefreshControl's, which ignore the anchor: `stretches` centres the view on the control and scales it
///     by the pull over its `height`, unclamped (1.5 at 150 %), so that it fills the gap; `fixedTop` does the
///     same until fully revealed and then pins it to the base line unscaled; `fixedBottom` keeps it on the
///     content edge (docs/SEEDS.md §4.2).
public struct EdgeGeometry: Hashable, Sendable, Codable {
    public var control: Rect
    public var view: Rect
    public var scale: Double

    // Inlined into the frame's per-edge fills, each with its edge a constant (ListModel+Frame.swift).
    @inline(__always)
    public init(
        edge: Edge, configuration: EdgeConfiguration, distance: Double, viewport: Size, baseInset: Double
    ) {
        let pull = max(0, distance.isFinite ? distance : 0)
        let height = configuration.height
        let contentEdge = baseInset + pull
        let stretched = pull > height

        let controlStart: Double
        let controlLength = stretched ? pull : height
        if stretched || configuration.presentation == .background {
            controlStart = baseInset
        } else {
            controlStart = contentEdge - height
        }

        let centred = controlStart + (controlLength - height) / 2
        // GVRefreshControl's visible percentage, `−y / height`: not clamped, so `stretches` scales past 1 on a
        // pull longer than the control (docs/SEEDS.md §4.2, Behaviour). Measured here from the rest position,
        // as every threshold is (GV's ignored the inset, docs/SEEDS.md (c) 1).
        let visible = height > 0 ? pull / height : 1
        let viewStart: Double
        var scale = 1.0
        switch configuration.viewBehaviour {
        case .anchored:
            switch configuration.anchor {
            case .top: viewStart = controlStart
            case .middle: viewStart = centred
            case .bottom: viewStart = controlStart + controlLength - height
            }
        case .stretches:
            viewStart = centred
            scale = max(0.01, visible)
        case .fixedTop:
            // Below a full reveal the control is not stretched, and `centred` is its start.
            if visible < 1 {
                viewStart = centred
                scale = max(0.01, visible)
            } else {
                viewStart = baseInset
            }
        case .fixedBottom:
            viewStart = contentEdge - height
        }
        control = Self.rect(edge: edge, start: controlStart, length: controlLength, viewport: viewport)
        view = Self.rect(edge: edge, start: viewStart, length: height, viewport: viewport)
        self.scale = scale
    }

    /// A band `length` long starting `start` inward from `edge`, spanning the viewport across.
    @inline(__always)
    static func rect(edge: Edge, start: Double, length: Double, viewport: Size) -> Rect {
        switch edge {
        case .top: Rect(x: 0, y: start, width: viewport.width, height: length)
        case .bottom: Rect(x: 0, y: viewport.height - start - length, width: viewport.width, height: length)
        case .left: Rect(x: start, y: 0, width: length, height: viewport.height)
        case .right: Rect(x: viewport.width - start - length, y: 0, width: length, height: viewport.height)
        }
    }
}
