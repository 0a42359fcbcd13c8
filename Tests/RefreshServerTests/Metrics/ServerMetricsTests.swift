import RefreshSessions
import Testing

@testable import RefreshServer

@Suite struct ServerMetricsTests {
    @Test func countersGaugesAndTheHistogramAreWrittenInPrometheusFormat() {
        let metrics = ServerMetrics()
        var counters = HostCounters()
        counters.inputs = 3
        counters.frames = 1
        counters.sentBytes = 85
        counters.inputToFrame.record(microseconds: 700)
        metrics.take(counters)
        metrics.error(code: "bad_field")
        metrics.error(code: "bad_field")
        metrics.error(code: "rate_limited")
        metrics.snapshot(
            .init(
                connections: 2, sessions: 1, members: 2, traceBytes: 4096, heapInUseBytes: 5_000_000,
                heapFreeBytes: 70_000))
        let text = metrics.text()
        for line in [
            "refreshkit_inputs_total 3", "refreshkit_frames_total 1", "refreshkit_sent_bytes_total 85",
            #"refreshkit_errors_total{code="bad_field"} 2"#, #"refreshkit_errors_total{code="rate_limited"} 1"#,
            "refreshkit_connections 2.0", "refreshkit_sessions 1.0", "refreshkit_members 2.0",
            "refreshkit_trace_bytes 4096.0", "refreshkit_heap_in_use_bytes 5000000.0",
            "refreshkit_heap_free_bytes 70000.0",
            #"refreshkit_input_to_frame_seconds_bucket{le="0.0005"} 0"#,
            #"refreshkit_input_to_frame_seconds_bucket{le="0.001"} 1"#,
            #"refreshkit_input_to_frame_seconds_bucket{le="1.0"} 1"#,
            #"refreshkit_input_to_frame_seconds_bucket{le="+Inf"} 1"#, "refreshkit_input_to_frame_seconds_sum 0.0007",
            "refreshkit_input_to_frame_seconds_count 1",
        ] {
            #expect(text.contains(line + "\n"), "missing: \(line)\n\(text)")
        }
    }

    @Test func takingTheHostsTotalsAgainCountsOnlyWhatIsNew() {
        let metrics = ServerMetrics()
        var counters = HostCounters()
        counters.messages = 5
        metrics.take(counters)
        counters.messages = 7
        metrics.take(counters)
        #expect(metrics.text().contains("refreshkit_messages_total 7\n"))
    }

    @Test func twoServersNeverShareFigures() {
        let one = ServerMetrics()
        let two = ServerMetrics()
        var counters = HostCounters()
        counters.inputs = 1
        one.take(counters)
        #expect(two.text().contains("refreshkit_inputs_total 0\n"))
    }
}
