import Logging
import RefreshKit
import RefreshSessions
import RefreshWire

/// The session host's whole path per input, for a profiler (`--profile-host N --profile-session-host`): the
/// calls `refreshkit serve`'s lws adapter makes for each message — ``SessionHost/received(_:binary:isLast:on:at:)``
/// (screens, decode, apply, the trace's record), the end of the read (``SessionHost/flushHeldFrame()``), and the
/// write of the frame it made (``SessionHost/writeable(_:at:write:)``, to a transport that takes every byte) —
/// without lws, sockets or a clock. Under callgrind (bench/profile/callgrind_host.py) the counts are exact and
/// repeat from run to run, where the whole server's move with the machine's load (docs/PERFORMANCE.md, "Profile").
struct SessionHostBench {
    /// Inputs in all, spread over the sessions in turn (one connection each, `delta` frames, numbered touches in
    /// their binary spelling, as the page sends them).
    var inputs = 120_000
    /// The clock's time at the start, µs: 1 s unless `--profile-real-clock` (``realClockStart``).
    var start: Int64 = 1_000_000

    /// A fixed time since 1970 (2025-11-25 00:00 UTC), µs, so the counts repeat from run to run: the server's
    /// clock (ServerClock) counts from 1970, so its frames' `t` has a 13-digit integer part (ms).
    static let realClockStart: Int64 = 1_764_028_800_000_000

    /// - Returns: ns per input (wall clock; meaningful only outside a profiler).
    func profile(sessions count: Int) throws -> Double {
        var configuration = SessionHost.Configuration.production
        configuration.sessionGraceSeconds = 0
        let transport = Transport(
            host: SessionHost(
                configuration: configuration, logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() },
                headroom: 16),
            now: start)
        defer { transport.host.tearDown() }
        let hello = Array(#"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3,"frames":"delta"}"#.utf8)
        let connections = (0..<count).map { index in
            let connection = transport.host.opened(id: UInt64(index + 1), peer: "127.0.0.1", at: transport.now)
            transport.carryOut()
            transport.deliver(hello, on: connection)
            return connection
        }
        // The page's touches, written before the clock starts: a drag that never lifts, as `refreshkit-load`'s.
        let rounds = max(1, inputs / count)
        // The page's clock (ms since it loaded) starts at 1 s whichever the server's: the same texts.
        let pageStart = 1000.0
        let touches = (0..<rounds).map { Self.touch($0, pageTime: pageStart + 16.667 * Double($0 + 1)) }
        let began = Clock.now()
        transport.drive(touches, on: connections)
        let seconds = Clock.seconds(since: began)
        if transport.written == 42 { print("") }  // keeps the work observable
        return seconds / Double(rounds * count) * 1e9
    }

    /// The `round`-th touch of the drag, in the page's binary spelling (web/js/protocol.js, docs/PROTOCOL.md).
    static func touch(_ round: Int, pageTime: Double) -> [UInt8] {
        let dy: Double = round == 0 ? 0 : ((round - 1) / 30) % 2 == 0 ? -5 : 5
        let touch = TouchInput(
            phase: round == 0 ? .start : .move, delta: Point(x: 0, y: dy), pageTime: pageTime, pointer: 1)
        return BinaryTouch.bytes(touch, seq: UInt64(round + 1))
    }

    /// Tells the host what a transport would, and carries out its writes at once.
    final class Transport {
        let host: SessionHost
        var now: Int64
        var written = 0

        init(host: SessionHost, now: Int64) {
            self.host = host
            self.now = now
        }

        /// Every round's text to every connection in turn, a period apart: the part a profiler counts
        /// (callgrind_host.py collects only inside it).
        @inline(never)
        func drive(_ touches: [[UInt8]], on connections: [Connection]) {
            for touch in touches {
                now += EngineBench.period
                for connection in connections { deliver(touch, binary: true, on: connection) }
            }
        }

        /// One message in one read, then the read's end.
        func deliver(_ message: [UInt8], binary: Bool = false, on connection: Connection) {
            message.withUnsafeBytes { host.received($0, binary: binary, isLast: true, on: connection, at: now) }
            carryOut()
            host.flushHeldFrame()
            carryOut()
        }

        func carryOut() {
            host.carryOutActions { action in
                switch action {
                case .wantWrite(let connection), .writeSoon(let connection):
                    _ = host.writeable(connection, at: now) { _, buffer in
                        written &+= buffer.count
                        return true
                    }
                default:
                    break
                }
            }
        }
    }
}
