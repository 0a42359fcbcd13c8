import CLibWebSockets
import Foundation

/// The whole server's instructions per input, and the echo's, counted by callgrind (docs/PERFORMANCE.md, "The
/// whole server, instructions per input"): the target process under `valgrind --tool=callgrind` with ``sessions``
/// sessions at the bench's rate, counting only while the generator's measured ``window`` lasts (callgrind started
/// with instrumentation off, switched on by `callgrind_control` when the generator says its window opened and off
/// when it says it closed), divided by the messages the target handled in that time (the calls of its receive
/// function in the profile: `SessionHost.received`, the echo's `EchoConnection.receive`). Start-up, connections,
/// warm-up and shutdown are not counted at all. (Two runs' totals used to be subtracted instead, a window of 4 s from
/// one of 16 s: one unexported function of libwebsockets then cost 0.9–2.7 million instructions more or less from
/// run to run, which moved the echo's count over 5 034–5 338 in five runs of one day.) lws, libuv, libc and the
/// Swift runtime are counted, the kernel is not.
///
/// Valgrind 3.19 gives up on `refreshkit`'s debug information, so each target runs from a `strip -g` copy in the
/// log directory (the instructions are the same, only the symbol names go; the symbols stay).
struct ServerInstructions {
    let options: BenchOptions
    static let sessions = 20
    /// The generator's measured window, s: some 14 400 inputs.
    static let window = 12.0

    /// The mangled names of the function each target calls once per message it receives whole.
    static func receiveFunction(_ kind: ServerBench.Kind) -> String {
        switch kind {
        case .refreshkit: "$s15RefreshSessions11SessionHostC8received_6binary6isLast2on2at"
        case .echo: "$s7LWSEcho14EchoConnectionC7receive_6binary9remaining5final"
        }
    }

    /// One target's count over the window.
    struct Count {
        /// The instructions counted while the window lasted.
        var total: Int
        /// Messages the target received whole while it was counted.
        var handled: Int
        /// Inputs the generator sent in its window, and messages it received (frames; the echo's: echoes).
        var inputs: Int
        var messages: Int

        /// Messages received per input sent: under ``keptUpShare`` the target fell behind under callgrind (the host
        /// did not give it the time), coalesced a backlog, and its count says nothing.
        var answeredShare: Double { framesPerInput ?? 0 }

        static let keptUpShare = 0.9

        var framesPerInput: Double? { inputs > 0 ? Double(messages) / Double(inputs) : nil }

        var perInput: Double? { handled > 0 ? Double(total) / Double(handled) : nil }

        var json: [String: Any] {
            [
                "instructions_per_input": perInput.map { $0.rounded() } ?? NSNull(),
                "total": total, "handled": handled, "inputs_sent": inputs, "messages_received": messages,
                "messages_per_input": framesPerInput.map { ($0 * 100).rounded() / 100 } ?? NSNull(),
                "answered_share": (answeredShare * 100).rounded() / 100,
            ]
        }
    }

    /// The target's count, or nil when valgrind (or its `callgrind_control`) is not on `PATH`.
    func count(_ kind: ServerBench.Kind) async throws -> Count? {
        guard let valgrind = InstructionCount.executable(named: "valgrind"),
            let control = InstructionCount.executable(named: "callgrind_control")
        else { return nil }
        let binary = try InstructionCount.strippedCopy(
            of: ServerBench.executable(kind, options), as: "\(options.logDirectory)/\(kind.rawValue)-stripped")
        let label = "callgrind-\(kind.rawValue)"
        let profile = "\(options.logDirectory)/\(label).out"
        let target = try await ChildProcess(
            name: label, executable: valgrind,
            arguments: ["--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=\(profile)", binary]
                + ServerBench.arguments(kind, options),
            workingDirectory: options.root, log: "\(profile).log", grace: 60)
        guard let portText = await target.waitForLine(matching: #"listening on http://[^\s]*:(\d+)"#, timeout: 120),
            let port = Int(portText)
        else {
            await target.stop()
            throw BenchError("\(kind.rawValue) under callgrind did not start within 120 s (log: \(profile).log)")
        }
        let log = "\(options.logDirectory)/\(label)-load.log"
        let generator: ChildProcess
        do {
            generator = try await ChildProcess(
                name: "refreshkit-load", executable: options.binary("refreshkit-load"),
                arguments: [
                    "--url", "ws://127.0.0.1:\(port)/", "--protocol", "refreshkit.v1", "--sessions",
                    "\(Self.sessions)", "--rate", "\(options.rate)", "--warmup", "2", "--duration", "\(Self.window)",
                    "--mode", kind == .echo ? "echo" : "frames",
                ] + (kind == .refreshkit ? ["--frames", options.frames] : []),
                workingDirectory: options.root, log: log)
        } catch {
            await target.stop()
            throw error
        }
        let finished: Bool
        do {
            try await Self.instrument(target.pid, by: control, as: generator, timeout: Self.window + 120)
            finished = await generator.wait(timeout: Self.window + 120)
        } catch {
            await generator.stop()
            await target.stop()
            throw error
        }
        await target.stop()
        guard finished,
            let line = generator.stdout.split(separator: "\n").last,
            let result = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
            let inputs = (result["inputs_sent"] as? NSNumber)?.intValue
        else {
            throw BenchError("refreshkit-load against \(kind.rawValue) under callgrind gave no result (log: \(log))")
        }
        return Count(
            total: try Self.total(profile), handled: try Self.calls(profile, of: Self.receiveFunction(kind)),
            inputs: inputs, messages: (result["messages"] as? NSNumber)?.intValue ?? 0)
    }

    /// Switches callgrind's counting in process `pid` on when the generator says on stderr that its window opened
    /// (`RK_LOAD_WINDOW_OPENED`), and off when it says the window closed.
    private static func instrument(_ pid: Int32, by control: String, as generator: ChildProcess, timeout: Double)
        async throws
    {
        for (line, switchTo) in [(RK_LOAD_WINDOW_OPENED, "on"), (RK_LOAD_WINDOW_CLOSED, "off")] {
            guard await generator.waitForLogLine(containing: line, timeout: timeout) else {
                let when = generator.isRunning ? "within \(Int(timeout)) s" : "before it ended (\(generator.status))"
                throw BenchError("refreshkit-load did not say '\(line)' \(when) (log: \(generator.log))")
            }
            let call = try await ChildProcess(
                name: "callgrind_control", executable: control, arguments: ["-i", switchTo, "\(pid)"],
                workingDirectory: "/", log: generator.log + ".control")
            guard await call.wait(timeout: 30) else {
                await call.stop()
                throw BenchError("callgrind_control -i \(switchTo) \(pid) did not finish within 30 s")
            }
        }
    }

    /// How many calls of functions whose mangled names start with `prefix` a callgrind profile counted (its `calls=`
    /// lines under a `cfn=` of such a function; the profile names a function once and then by its number).
    static func calls(_ profile: String, of prefix: String) throws -> Int {
        guard let text = try? String(contentsOfFile: profile, encoding: .utf8) else {
            throw BenchError("callgrind wrote no profile \(profile)")
        }
        var names: [Substring: Substring] = [:]
        var calling = false
        var count = 0
        for line in text.split(separator: "\n") {
            if line.hasPrefix("fn=") || line.hasPrefix("cfn=") {
                // `fn=(12) name` the first time, `fn=(12)` after.
                let body = line.drop { $0 != "(" }
                guard let close = body.firstIndex(of: ")") else { continue }
                let id = body[body.startIndex...close]
                let name = body[body.index(after: close)...].drop { $0 == " " }
                if !name.isEmpty { names[id] = name }
                if line.hasPrefix("cfn=") { calling = names[id]?.hasPrefix(prefix) ?? false }
            } else if line.hasPrefix("calls="), calling {
                count += Int(line.dropFirst(6).split(separator: " ").first ?? "") ?? 0
                calling = false
            }
        }
        return count
    }

    /// The instructions a callgrind profile counted (its `summary:` or `totals:` line).
    static func total(_ profile: String) throws -> Int {
        guard let text = try? String(contentsOfFile: profile, encoding: .utf8) else {
            throw BenchError("callgrind wrote no profile \(profile)")
        }
        for line in text.split(separator: "\n").reversed()
        where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
            let figure = line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            if let count = Int(figure.split(separator: " ").first ?? "") { return count }
        }
        throw BenchError("no 'summary:' line in \(profile)")
    }
}
