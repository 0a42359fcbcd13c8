/// A point or a vector in CSS pixels (iOS points). `y` grows downwards on the page.
public struct Point: Hashable, Sendable, CustomStringConvertible, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// The component along `axis`.
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? x : y }
        set {
            if axis == .horizontal { x = newValue } else { y = newValue }
        }
    }

    public var description: String { "(\(x), \(y))" }
}

/// A width and a height in CSS pixels.
public struct Size: Hashable, Sendable, CustomStringConvertible, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// The extent along `axis`.
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? width : height }
        set {
            if axis == .horizontal { width = newValue } else { height = newValue }
        }
    }

    public var description: String { "\(width)×\(height)" }
}

/// An axis-aligned rectangle in CSS pixels.
public struct Rect: Hashable, Sendable, Codable {
    public var origin: Point
    public var size: Size

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
}

/// The two scrolling axes. They are simulated independently, as UIScrollView does.
public enum Axis: String, Hashable, Sendable, CaseIterable, Codable {
    case horizontal
    case vertical
}

/// One of the four edges of the scroll view, each of which may carry an edge control.
public enum Edge: String, Hashable, Sendable, CaseIterable, Codable {
    case top
    case bottom
    case left
    case right

    /// The axis along which this edge's control is pulled.
    public var axis: Axis {
        switch self {
        case .top, .bottom: .vertical
        case .left, .right: .horizontal
        }
    }

    /// `true` for the edges at the start of an axis (top, left): pulling there makes the offset negative.
    public var isLeading: Bool { self == .top || self == .left }

    /// The position of this edge in ``allCases``: the model keeps one control per edge in that order and
    /// finds it by this index (no search, no hashing of the raw value).
    var index: Int {
        switch self {
        case .top: 0
        case .bottom: 1
        case .left: 2
        case .right: 3
        }
    }
}

/// Space around the content, per edge, in CSS pixels (UIScrollView's `contentInset`).
public struct EdgeInsets: Hashable, Sendable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets()

    /// The inset at `edge`.
    public subscript(edge: Edge) -> Double {
        get {
            switch edge {
            case .top: top
            case .left: left
            case .bottom: bottom
            case .right: right
            }
        }
        set {
            switch edge {
            case .top: top = newValue
            case .left: left = newValue
            case .bottom: bottom = newValue
            case .right: right = newValue
            }
        }
    }

    /// The sum of both insets along `axis`.
    public func total(along axis: Axis) -> Double {
        axis == .horizontal ? left + right : top + bottom
    }

    public static func + (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: a.top + b.top, left: a.left + b.left, bottom: a.bottom + b.bottom, right: a.right + b.right)
    }
}
