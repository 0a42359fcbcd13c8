/// What one load run does: the plain values the generator reads, made by ``LoadCommand`` from the command line.
struct Options {
    enum Mode: String, CaseIterable {
        /// Against `refreshkit serve`: latency = send of an input → the first frame whose `t` is at or after
        /// that send (server and generator read the same kind of clock, ``ServerClock``, which agrees across
        /// processes).
        case frames
        /// Against `lws-echo`: latency = send of a message → its echo (FIFO per connection).
        case echo
    }

    /// What the sessions ask for in `hello` (docs/PROTOCOL.md, "delta"): whole frames, or deltas after the
    /// first. Deltas by default, as the page does.
    enum Frames: String, CaseIterable {
        case full
        case delta
    }

    /// How the sessions spell their touches (docs/PROTOCOL.md, "Binary touch"): in binary, as the page does
    /// once the welcome offers it, or as JSON text.
    enum Touch: String, CaseIterable {
        case binary
        case json
    }

    var host = "127.0.0.1"
    var port = 0
    /// wss:// (TLS), trusting this CA's certificates; nil: ws://.
    var tlsCA: String?
    var path = "/"
    var subprotocol = "refreshkit.v1"
    var touch = Touch.binary
    var sessions = 100
    var rate = 60.0
    var duration = 10.0
    var warmup = 2.0
    var mode = Mode.frames
    var frames = Frames.delta
    /// Sessions send `hello` and then nothing (the idle-cost measurement).
    var idle = false
    /// The server's pid: its CPU time (its CPU-time clock; the kernel's part from /proc) and RSS are read over the
    /// measured window.
    var serverPID: Int32?
    /// More processes whose CPU time over the measured window is reported, each on its own (`watched` in the
    /// report): the servers of a cluster, its store, its balancer.
    var watchedPIDs: [Int32] = []
    /// Drive the target only in every other slice of time, the other generator's target in the rest (``Slices``).
    var slices = Slices.none
    /// Seconds the sessions stay open, sending nothing, after the window and its answers. Two generators measured
    /// turn by turn do not end together (one's window may end a slice or two after the other's), and the first to
    /// close its thousand connections would give its target, the kernel and itself that work in the other's last
    /// slices: lingering, each closes after both have measured.
    var linger = 0.0
    var connectTimeout = 60.0
    /// Connections that may be in the middle of their handshake at once.
    var connectBatch = 200
    /// Finger movement per `touch move`, CSS px, and moves before the direction flips.
    var step = 5.0
    var movesPerDirection = 30
}

/// A loopback WebSocket address, `ws://127.0.0.1:PORT/PATH` (or `wss://`): the load generator talks to nothing else.
struct LoopbackURL: Equatable {
    var port: Int
    var path: String
    var tls: Bool

    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    init(_ url: String) throws(Refusal) {
        tls = url.hasPrefix("wss://")
        guard tls || url.hasPrefix("ws://") else {
            throw Refusal(description: "the URL must start with ws:// or wss://")
        }
        let rest = url.dropFirst(tls ? 6 : 5)
        let authority = rest.prefix { $0 != "/" }
        path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
        guard let colon = authority.lastIndex(of: ":"), let parsed = Int(authority[authority.index(after: colon)...]),
            (1...65535).contains(parsed)
        else { throw Refusal(description: "the URL needs an explicit port: ws://127.0.0.1:PORT/") }
        let host = authority[..<colon]
        guard host == "127.0.0.1" || host == "localhost" else {
            throw Refusal(description: "the load generator only talks to loopback (127.0.0.1)")
        }
        port = parsed
    }
}
