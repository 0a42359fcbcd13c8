import ArgumentParser
import Foundation

/// `refreshkit-load`: N WebSocket sessions on loopback, each dragging at a fixed rate; measures the time from
/// sending an input to receiving the frame that reflects it (or, against lws-echo, its echo). One JSON object on
/// stdout; progress and problems on stderr. Bounded: an alarm ends the process if anything hangs.
@main
struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refreshkit-load",
        abstract: "Opens N WebSocket sessions on loopback, drags each at a fixed rate, prints one JSON object.")

    @Option(help: ArgumentHelp("The server: ws://127.0.0.1:PORT/ or wss://… (loopback only).", valueName: "url"))
    var url: String

    @Option(
        help: ArgumentHelp("With a wss:// URL: the CA the server's certificate is checked against.", valueName: "pem"))
    var tlsCa: String?

    @Option(name: .customLong("protocol"), help: "The WebSocket subprotocol to ask for.")
    var subprotocol = "refreshkit.v1"

    @Option(help: "Sessions (connections), 1…100000.")
    var sessions = 100

    @Option(help: ArgumentHelp("Inputs per second per session.", valueName: "hz"))
    var rate = 60.0

    @Option(help: ArgumentHelp("Seconds measured, after the warm-up.", valueName: "seconds"))
    var duration = 10.0

    @Option(help: ArgumentHelp("Seconds of input before measuring.", valueName: "seconds"))
    var warmup = 2.0

    @Option(
        help: "frames: latency to the frame that reflects an input (refreshkit serve); echo: to its echo (lws-echo).")
    var mode: Options.Mode = .frames

    @Option(help: "What the sessions ask for in hello: delta (as the page does) or full frames.")
    var frames: Options.Frames = .delta

    @Option(help: "How touches are spelled: binary (as the page sends them) or json.")
    var touch: Options.Touch = .binary

    @Flag(help: "Sessions send hello and then nothing (the idle cost).")
    var idle = false

    @Option(
        help: ArgumentHelp("The server's process id: its CPU time and RSS over the measured window.", valueName: "pid"))
    var serverPid: Int32?

    @Option(
        name: .customLong("watch-pid"),
        help: ArgumentHelp(
            "Another process whose CPU time over the measured window is reported (repeatable).", valueName: "pid"))
    var watchPids: [Int32] = []

    @Option(
        help: ArgumentHelp(
            "Drive the server only in every other slice of this many seconds (0: all the time), so that a second "
                + "generator, given the other --slice-phase, measures another server over the same seconds.",
            valueName: "seconds"))
    var slice = 0.0

    @Option(help: "With --slice: 0 drives the server in the even slices, 1 in the odd ones.")
    var slicePhase = 0

    @Option(help: ArgumentHelp("With --slice: the start of each slice not measured.", valueName: "seconds"))
    var sliceLead = 0.1

    @Option(
        help: ArgumentHelp(
            "Seconds the sessions stay open and quiet after the measured window, before they close: turn by turn, so "
                + "that closing them does not fall in the other generator's last slices.", valueName: "seconds"))
    var linger = 0.0

    @Option(help: ArgumentHelp("Seconds allowed for every session to connect.", valueName: "seconds"))
    var connectTimeout = 60.0

    @Option(help: "Connections that may be in their handshake at once.")
    var connectBatch = 200

    @Option(help: ArgumentHelp("Finger movement per touch move.", valueName: "px"))
    var step = 5.0

    @Option(help: "Moves before the drag changes direction.")
    var movesPerDirection = 30

    func validate() throws {
        do {
            let address = try LoopbackURL(url)
            guard address.tls == (tlsCa != nil) else {
                throw ValidationError("a wss:// --url needs --tls-ca, and --tls-ca a wss:// --url")
            }
        } catch let refusal as LoopbackURL.Refusal {
            throw ValidationError("--url: \(refusal)")
        }
        guard (1...100_000).contains(sessions) else { throw ValidationError("--sessions must be 1…100000") }
        guard rate.isFinite, rate > 0 || idle else { throw ValidationError("--rate must be > 0") }
        for (name, value) in [
            ("--duration", duration), ("--warmup", warmup), ("--connect-timeout", connectTimeout), ("--linger", linger),
        ] {
            guard value.isFinite, (0...3600).contains(value) else {
                throw ValidationError("\(name) must be 0…3600 seconds")
            }
        }
        guard slice.isFinite, (0...60).contains(slice) else { throw ValidationError("--slice must be 0…60 seconds") }
        guard slicePhase == 0 || slicePhase == 1 else { throw ValidationError("--slice-phase must be 0 or 1") }
        guard sliceLead.isFinite, sliceLead >= 0, slice == 0 || sliceLead < slice else {
            throw ValidationError("--slice-lead must be 0 or more, and shorter than --slice")
        }
        guard slice == 0 || duration >= 2 * slice else {
            throw ValidationError("--duration must be at least two slices (2 × --slice)")
        }
        guard step.isFinite, step >= 0 else { throw ValidationError("--step must be a non-negative number") }
        guard connectBatch >= 1, movesPerDirection >= 1 else {
            throw ValidationError("--connect-batch and --moves-per-direction must be at least 1")
        }
    }

    /// The plain values the generator reads.
    func options() throws -> Options {
        let address = try LoopbackURL(url)
        var options = Options()
        options.port = address.port
        options.path = address.path
        options.tlsCA = tlsCa
        options.subprotocol = subprotocol
        options.sessions = sessions
        options.rate = rate
        options.duration = duration
        options.warmup = warmup
        options.mode = mode
        options.frames = frames
        options.touch = touch
        options.idle = idle
        options.serverPID = serverPid
        options.watchedPIDs = watchPids
        options.slices = Slices(
            length: Int64((slice * 1_000_000).rounded()), phase: Int64(slicePhase),
            lead: Int64((sliceLead * 1_000_000).rounded()))
        options.linger = linger
        options.connectTimeout = connectTimeout
        options.connectBatch = connectBatch
        options.step = step
        options.movesPerDirection = movesPerDirection
        return options
    }

    func run() throws {
        let options = try options()
        signal(SIGPIPE, SIG_IGN)
        // Turn by turn, the window waits for a slice of its own and is a whole number of pairs of slices.
        alarm(UInt32(options.connectTimeout + options.warmup + options.duration + 4 * slice + linger + 30))
        let generator = LoadGenerator(options: options)
        var printed = false
        // The report as soon as it is final, before the sessions linger (a caller may read it while they do).
        generator.whenAnswered = { [unowned generator] in
            print(Report(generator).json())
            fflush(nil)  // every output stream: stdout is a pipe, fully buffered
            printed = true
        }
        let ok = generator.run()
        if !printed { print(Report(generator).json()) }
        if let failure = generator.failure { generator.log(failure) }
        throw ExitCode(ok ? 0 : 1)
    }
}

extension Options.Mode: ExpressibleByArgument {}
extension Options.Frames: ExpressibleByArgument {}
extension Options.Touch: ExpressibleByArgument {}
