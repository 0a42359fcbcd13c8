/// The content inset as separate layers: the app's own inset plus one layer per edge control.
///
/// Every seed loses the app's inset somewhere (docs/SEEDS.md, weakness 1: MS resets bottom/left/right to 0, JH
/// ignores insets in its threshold, HT clobbers keyboard insets). Here each control adds and removes only
/// its own layer, and thresholds are measured from the rest position of everything *else*.
public struct InsetLayers: Hashable, Sendable, Codable {
    /// The app's own inset (navigation bars, safe areas); edge controls never touch it.
    public var app: EdgeInsets {
        didSet { combined = app + controls }
    }
    /// The layer each edge control holds right now (its resting or prompting inset, or 0).
    public private(set) var controls: EdgeInsets
    /// The inset the content actually rests on: `app + controls`, the same sum, kept as either changes
    /// rather than made on every read (a drag's move reads it for the finger's offset, for each shown edge's
    /// pull and for the frame).
    public private(set) var combined: EdgeInsets

    /// The coded members: ``combined`` follows from them.
    private enum CodingKeys: String, CodingKey {
        case app, controls
    }

    public init(app: EdgeInsets = .zero, controls: EdgeInsets = .zero) {
        self.app = app
        self.controls = controls
        combined = app + controls
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            app: try container.decode(EdgeInsets.self, forKey: .app),
            controls: try container.decode(EdgeInsets.self, forKey: .controls))
    }

    /// The combined inset without `edge`'s own control layer: what `edge` measures its pull from.
    public func excluding(_ edge: Edge) -> EdgeInsets {
        var insets = combined
        insets[edge] -= controls[edge]
        return insets
    }

    /// Sets the layer held by `edge`'s control (negative values are treated as 0).
    public mutating func setLayer(_ value: Double, for edge: Edge) {
        controls[edge] = max(0, value.isFinite ? value : 0)
        combined = app + controls
    }
}
