/// The load generator's command line. Deliberately tiny (no ArgumentParser): `--name value` pairs and a
/// few flags.
struct Options {
    enum Mode: String {
        /// Against `refreshkit serve`: latency = send of an input → the first frame whose `t` is at or after
        /// that send (server and generator read the same CLOCK_MONOTONIC on this machine).
        case frames
        /// Against `lws-echo`: latency = send of a message → its echo (FIFO per connection).
        case echo
    }

    /// What the sessions ask for in `hello` (docs/PROTOCOL.md, "delta"): whole frames, or deltas after the
    /// first. Deltas by default, as the page does.
    enum Frames: String {
        case full
        case delta
    }

    var host = "127.0.0.1"
    var port = 0
    var path = "/"
    var subprotocol = "refreshkit.v1"
    var sessions = 100
    var rate = 60.0
    var duration = 10.0
    var warmup = 2.0
    var mode = Mode.frames
    var frames = Frames.delta
    /// Sessions send `hello` and then nothing (the idle-cost measurement).
    var idle = false
    /// The server's pid: its CPU (utime + stime) and RSS are read from /proc over the measured window.
    var serverPID: Int32?
    var connectTimeout = 60.0
    /// Connections that may be in the middle of their handshake at once.
    var connectBatch = 200
    /// Finger movement per `touch move`, CSS px, and moves before the direction flips.
    var step = 5.0
    var movesPerDirection = 30

    static let usage = """
        usage: refreshkit-load --url ws://127.0.0.1:PORT/ [--protocol refreshkit.v1] [--sessions N] [--rate HZ]
                               [--duration S] [--warmup S] [--mode frames|echo] [--frames delta|full] [--idle]
                               [--server-pid PID]
                               [--connect-timeout S] [--connect-batch N] [--step PX] [--moves-per-direction N]
        Opens N WebSocket sessions on loopback, drags each at HZ, prints one JSON object on stdout.
        """

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ arguments: [String]) throws(Failure) -> Options {
        var options = Options()
        var index = 0
        func value(_ name: String) throws(Failure) -> String {
            index += 1
            guard index < arguments.count else { throw Failure(description: "\(name) needs a value") }
            return arguments[index]
        }
        func number(_ name: String) throws(Failure) -> Double {
            let text = try value(name)
            guard let parsed = Double(text), parsed.isFinite, parsed >= 0 else {
                throw Failure(description: "\(name): '\(text)' is not a non-negative number")
            }
            return parsed
        }
        func integer(_ name: String) throws(Failure) -> Int {
            let text = try value(name)
            guard let parsed = Int(text), parsed >= 0 else {
                throw Failure(description: "\(name): '\(text)' is not a non-negative integer")
            }
            return parsed
        }
        var sawURL = false
        while index < arguments.count {
            let name = arguments[index]
            switch name {
            case "--url":
                try options.setURL(try value(name))
                sawURL = true
            case "--protocol": options.subprotocol = try value(name)
            case "--sessions": options.sessions = try integer(name)
            case "--rate": options.rate = try number(name)
            case "--duration": options.duration = try number(name)
            case "--warmup": options.warmup = try number(name)
            case "--mode":
                let text = try value(name)
                guard let mode = Mode(rawValue: text) else { throw Failure(description: "--mode: frames or echo") }
                options.mode = mode
            case "--frames":
                let text = try value(name)
                guard let frames = Frames(rawValue: text) else { throw Failure(description: "--frames: delta or full") }
                options.frames = frames
            case "--idle": options.idle = true
            case "--server-pid": options.serverPID = Int32(try integer(name))
            case "--connect-timeout": options.connectTimeout = try number(name)
            case "--connect-batch": options.connectBatch = Swift.max(1, try integer(name))
            case "--step": options.step = try number(name)
            case "--moves-per-direction": options.movesPerDirection = Swift.max(1, try integer(name))
            case "-h", "--help": throw Failure(description: usage)
            default: throw Failure(description: "unknown argument '\(name)'\n\(usage)")
            }
            index += 1
        }
        guard sawURL else { throw Failure(description: "--url is required\n\(usage)") }
        guard (1...100_000).contains(options.sessions) else { throw Failure(description: "--sessions: 1…100000") }
        guard options.rate > 0 || options.idle else { throw Failure(description: "--rate must be > 0") }
        guard options.duration <= 3600, options.warmup <= 3600, options.connectTimeout <= 3600 else {
            throw Failure(description: "durations are limited to one hour")
        }
        return options
    }

    /// `ws://HOST:PORT/PATH`, loopback only.
    private mutating func setURL(_ url: String) throws(Failure) {
        guard url.hasPrefix("ws://") else { throw Failure(description: "--url must start with ws://") }
        let rest = url.dropFirst(5)
        let authority = rest.prefix { $0 != "/" }
        path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
        guard let colon = authority.lastIndex(of: ":"), let parsed = Int(authority[authority.index(after: colon)...]),
            (1...65535).contains(parsed)
        else { throw Failure(description: "--url needs an explicit port: ws://127.0.0.1:PORT/") }
        host = String(authority[..<colon])
        port = parsed
        guard host == "127.0.0.1" || host == "localhost" else {
            throw Failure(description: "--url: the load generator only talks to loopback (127.0.0.1)")
        }
        host = "127.0.0.1"
    }
}
