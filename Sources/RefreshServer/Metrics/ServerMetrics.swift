import CoreMetrics
import Prometheus
import RefreshSessions

/// The server's vital signs (docs/OPERATIONS.md), recorded through swift-metrics into a Prometheus registry of
/// this server's own (no process-wide bootstrap, so servers in one process, tests included, never share
/// figures), and written in Prometheus' text exposition format for `GET /metrics`.
///
/// The counters and the input-to-frame histogram are the session host's, counted in plain integers
/// (`HostCounters`) and taken when the page is asked for (`take(_:)`); the gauges that describe what the
/// server holds (sessions, members, trace bytes) are set from its state then too (`snapshot(_:)`). So nothing
/// here runs per input. Both are called on the service thread, which also writes the page.
public final class ServerMetrics: @unchecked Sendable {
    /// The figures read off the server's state at a scrape.
    public struct Holdings: Sendable, Equatable {
        public var connections = 0
        public var sessions = 0
        public var members = 0
        public var traceBytes = 0
        /// The heap (jemalloc's statistics, `Sources/CJemalloc`): bytes handed out, and bytes it keeps in memory
        /// for reuse (docs/PERFORMANCE.md, "Memory per connected session").
        public var heapInUseBytes = 0
        public var heapFreeBytes = 0

        public init(
            connections: Int = 0, sessions: Int = 0, members: Int = 0, traceBytes: Int = 0, heapInUseBytes: Int = 0,
            heapFreeBytes: Int = 0
        ) {
            self.connections = connections
            self.sessions = sessions
            self.members = members
            self.traceBytes = traceBytes
            self.heapInUseBytes = heapInUseBytes
            self.heapFreeBytes = heapFreeBytes
        }
    }

    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    /// Page messages the server accepted and handled (inputs, commands, pings…), `refreshkit_messages_total`.
    let messages: CoreMetrics.Counter
    /// Inputs (touch, wheel) applied to a session, `refreshkit_inputs_total`.
    let inputs: CoreMetrics.Counter
    /// Frames written (whole or delta), `refreshkit_frames_total`.
    let frames: CoreMetrics.Counter
    /// WebSocket payload bytes written, `refreshkit_sent_bytes_total`.
    let sentBytes: CoreMetrics.Counter
    /// From receiving an input to writing the first frame that includes it, `refreshkit_input_to_frame_seconds`:
    /// the host's own histogram as last taken (``take(_:)``), written by ``text()`` after the registry's figures.
    private(set) var inputToFrame = LatencyHistogram(bounds: LatencyHistogram.inputToFrameBounds)
    /// The host's counters as last taken.
    private var taken = HostCounters()
    private let connections: Meter
    private let sessions: Meter
    private let members: Meter
    private let traceBytes: Meter
    private let heapInUse: Meter
    private let heapFree: Meter
    private var errors: [String: CoreMetrics.Counter] = [:]

    public init() {
        factory = PrometheusMetricsFactory(registry: registry)
        messages = Counter(label: "refreshkit_messages_total", factory: factory)
        inputs = Counter(label: "refreshkit_inputs_total", factory: factory)
        frames = Counter(label: "refreshkit_frames_total", factory: factory)
        sentBytes = Counter(label: "refreshkit_sent_bytes_total", factory: factory)
        connections = Meter(label: "refreshkit_connections", factory: factory)
        sessions = Meter(label: "refreshkit_sessions", factory: factory)
        members = Meter(label: "refreshkit_members", factory: factory)
        traceBytes = Meter(label: "refreshkit_trace_bytes", factory: factory)
        heapInUse = Meter(label: "refreshkit_heap_in_use_bytes", factory: factory)
        heapFree = Meter(label: "refreshkit_heap_free_bytes", factory: factory)
    }

    /// An `error` message sent, by its code: `refreshkit_errors_total{code="…"}`.
    func error(code: String) {
        if let counter = errors[code] {
            counter.increment()
            return
        }
        let counter = Counter(label: "refreshkit_errors_total", dimensions: [("code", code)], factory: factory)
        errors[code] = counter
        counter.increment()
    }

    /// What the session host hands over as it happens (its `error` messages, by code).
    var hostMetrics: HostMetrics {
        HostMetrics(error: { [self] code in error(code: code.rawValue) })
    }

    /// Brings the figures up to the host's `counters` (totals since the host started, which only grow): on the
    /// host's thread, before the page is written. The host counts in plain integers (``HostCounters``), so
    /// nothing here runs per input.
    func take(_ counters: HostCounters) {
        messages.increment(by: Int64(counters.messages &- taken.messages))
        inputs.increment(by: Int64(counters.inputs &- taken.inputs))
        frames.increment(by: Int64(counters.frames &- taken.frames))
        sentBytes.increment(by: Int64(counters.sentBytes &- taken.sentBytes))
        inputToFrame = counters.inputToFrame
        taken = counters
    }

    /// Sets the gauges from what the server holds now.
    func snapshot(_ holdings: Holdings) {
        connections.set(holdings.connections)
        sessions.set(holdings.sessions)
        members.set(holdings.members)
        traceBytes.set(holdings.traceBytes)
        heapInUse.set(holdings.heapInUseBytes)
        heapFree.set(holdings.heapFreeBytes)
    }

    /// Everything, in Prometheus' text exposition format (version 0.0.4).
    func text() -> String {
        registry.emitToString() + inputToFrame.prometheusText(name: "refreshkit_input_to_frame_seconds")
    }
}
