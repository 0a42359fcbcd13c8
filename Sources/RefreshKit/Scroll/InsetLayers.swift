/// The content inset as separate layers: the app's own inset plus one layer per edge control.
///
/// Every seed loses the app's inset somewhere (docs/SEEDS.md, weakness 1: MS resets bottom/left/right to 0, JH
/// ignores insets in its threshold, HT clobbers keyboard insets). Here each control adds and removes only
/// its own layer, and thresholds are measured from the rest position of everything *else*.
public struct InsetLayers: Hashable, Sendable, Codable {
    /// The app's own inset (navigation bars, safe areas); edge controls never touch it.
    public var app: EdgeInsets
    /// The layer each edge control holds right now (its resting or prompting inset, or 0).
    public private(set) var controls: EdgeInsets

    public init(app: EdgeInsets = .zero, controls: EdgeInsets = .zero) {
        self.app = app
        self.controls = controls
    }

    /// The inset the content actually rests on.
    public var combined: EdgeInsets { app + controls }

    /// The combined inset without `edge`'s own control layer: what `edge` measures its pull from.
    public func excluding(_ edge: Edge) -> EdgeInsets {
        var insets = combined
        insets[edge] -= controls[edge]
        return insets
    }

    /// Sets the layer held by `edge`'s control (negative values are treated as 0).
    public mutating func setLayer(_ value: Double, for edge: Edge) {
        controls[edge] = max(0, value.isFinite ? value : 0)
    }
}
