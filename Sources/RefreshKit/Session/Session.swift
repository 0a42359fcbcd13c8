/// One scroll view with its edge controls and its feed: the authoritative model a page drives.
///
/// A `Session` is a value. The host applies inputs with ``apply(_:at:)``, moves time forward with
/// ``advance(to:)``, and reads ``frame(at:)`` and ``takeEvents()``. Nothing inside reads a clock or does
/// I/O, so the same inputs at the same times give the same frames, bit for bit.
public struct Session: Sendable {
    public private(set) var now: Timestamp
    public private(set) var viewport: Size
    public private(set) var presetName: String
    public private(set) var configuration: SessionConfiguration
    private var sequence: UInt64 = 0
    private var events: [Event] = []
    private var offset = Point.zero

    /// A session at rest at the top of its feed.
    /// - Parameters:
    ///   - viewport: the page's viewport, CSS px; must be finite and positive.
    ///   - preset: the name of a preset (`ios`, `jh`, `ht`, `gv`, `ms`, `iq`).
    ///   - seed: seeds the simulated feed.
    ///   - time: the session's start.
    public init(viewport: Size, preset: String = "ios", seed: UInt64 = 1, time: Timestamp) throws(SessionError) {
        self.now = time
        self.viewport = viewport
        guard let found = Preset.named(preset) else {
            throw SessionError(code: "unknown_preset", message: "no preset named '\(preset)'")
        }
        self.presetName = found.name
        self.configuration = found.configuration
    }

    /// Applies one input at `time` (moving the session forward to it first). Throws, and changes nothing,
    /// when the input is out of range.
    public mutating func apply(_ input: Input, at time: Timestamp) throws(SessionError) {
        advance(to: time)
        switch input {
        case .touch(let touch):
            offset.y -= touch.delta.y
        case .wheel(let wheel):
            offset.y += wheel.delta.y
        case .resize(let size):
            viewport = size
        case .command, .configure:
            break
        }
    }

    /// Moves the session's clock forward to `time` (never backwards), running every animation and timer
    /// that falls due.
    public mutating func advance(to time: Timestamp) {
        if time > now { now = time }
    }

    /// Whether anything moves or waits: the host ticks only while this is `true`.
    public var isActive: Bool { false }

    /// The next time something scheduled happens (a feed answer, a timer), if any.
    public var nextDeadline: Timestamp? { nil }

    /// The frame at the session's current time; each call gets the next sequence number.
    public mutating func frame() -> Frame {
        sequence += 1
        return Frame(
            sequence: sequence, time: now, offset: offset, velocity: .zero, phase: .idle,
            contentSize: Size(width: viewport.width, height: 72 * 20), viewport: viewport, insets: .zero,
            edges: [EdgeFrame(edge: .top, state: .idle, distance: -offset.y, progress: 0, velocity: 0)],
            feed: FeedFrame(count: 20, hasMore: true, loading: false, newestID: 1020, rowHeight: 72)
        )
    }

    /// The events that happened since the last call, oldest first.
    public mutating func takeEvents() -> [Event] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }
}
