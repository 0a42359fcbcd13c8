import Foundation

/// The whole server's instructions per input, and the echo's, counted by callgrind (docs/PERFORMANCE.md, "The
/// whole server, instructions per input"): the target process under `valgrind --tool=callgrind` with
/// ``sessions`` sessions at the bench's rate, one run with a ``shortWindow`` and one with a ``longWindow``
/// measured, and the difference of the two totals divided by the difference of the inputs the generator sent.
/// Start-up, warm-up and shutdown are in both runs and cancel out, nearly: what they cost differs between two runs
/// by up to some 900 000 instructions (most of them in one unexported function of libwebsockets), which the long
/// window spreads over 14 400 inputs, not the 4 800 of a window of 8 s (the echo's count then moved over 5 053–5 493
/// in five counts of one evening, and over 5 156–5 175 in two with 16 s). lws, libuv, libc and the Swift runtime
/// are counted, the kernel is not.
///
/// Valgrind 3.19 gives up on `refreshkit`'s debug information, so each target runs from a `strip -g` copy in the
/// log directory (the instructions are the same, only the symbol names go).
struct ServerInstructions {
    let options: BenchOptions
    static let sessions = 20
    static let shortWindow = 4.0
    static let longWindow = 16.0

    /// One target's count: the two runs' totals and inputs, and what they make per input.
    struct Count {
        var shortTotal: Int
        var longTotal: Int
        var shortInputs: Int
        var longInputs: Int
        /// Messages the generator received in each window (frames; the echo's: echoes): fewer per input than
        /// the echo's one means the target coalesced a backlog (a starved run), which lowers its count per input.
        var shortFrames: Int
        var longFrames: Int

        /// The lower of the two windows' messages per input: under ``keptUpShare`` the target fell behind under
        /// callgrind (the host did not give it the time) and its count says nothing.
        var answeredShare: Double {
            guard shortInputs > 0, longInputs > 0 else { return 0 }
            return min(Double(shortFrames) / Double(shortInputs), Double(longFrames) / Double(longInputs))
        }

        static let keptUpShare = 0.9

        var framesPerInput: Double? {
            let inputs = longInputs - shortInputs
            return inputs > 0 ? Double(longFrames - shortFrames) / Double(inputs) : nil
        }

        var perInput: Double? {
            let inputs = longInputs - shortInputs
            return inputs > 0 ? Double(longTotal - shortTotal) / Double(inputs) : nil
        }

        var json: [String: Any] {
            [
                "instructions_per_input": perInput.map { $0.rounded() } ?? NSNull(),
                "totals": [shortTotal, longTotal], "inputs_sent": [shortInputs, longInputs],
                "messages_received": [shortFrames, longFrames],
                "messages_per_input": framesPerInput.map { ($0 * 100).rounded() / 100 } ?? NSNull(),
                "answered_share": (answeredShare * 100).rounded() / 100,
            ]
        }
    }

    /// The target's count, or nil when valgrind is not on `PATH`.
    func count(_ kind: ServerBench.Kind) async throws -> Count? {
        guard let valgrind = InstructionCount.executable(named: "valgrind") else { return nil }
        let binary = try InstructionCount.strippedCopy(
            of: ServerBench.executable(kind, options), as: "\(options.logDirectory)/\(kind.rawValue)-stripped")
        let short = try await run(valgrind, binary, kind, window: Self.shortWindow)
        let long = try await run(valgrind, binary, kind, window: Self.longWindow)
        return Count(
            shortTotal: short.total, longTotal: long.total, shortInputs: short.inputs, longInputs: long.inputs,
            shortFrames: short.frames, longFrames: long.frames)
    }

    /// One run under callgrind: the target, the generator against it for `window` seconds, then the target
    /// stopped (SIGTERM: both end cleanly, so callgrind writes its profile) and its total read.
    private func run(_ valgrind: String, _ binary: String, _ kind: ServerBench.Kind, window: Double) async throws
        -> (total: Int, inputs: Int, frames: Int)
    {
        let label = "callgrind-\(kind.rawValue)-\(Int(window))s"
        let profile = "\(options.logDirectory)/\(label).out"
        let target = try await ChildProcess(
            name: label, executable: valgrind,
            arguments: ["--tool=callgrind", "--callgrind-out-file=\(profile)", binary]
                + ServerBench.arguments(kind, options),
            workingDirectory: options.root, log: "\(profile).log", grace: 60)
        guard let portText = await target.waitForLine(matching: #"listening on http://[^\s]*:(\d+)"#, timeout: 120),
            let port = Int(portText)
        else {
            await target.stop()
            throw BenchError("\(kind.rawValue) under callgrind did not start within 120 s (log: \(profile).log)")
        }
        let log = "\(options.logDirectory)/\(label)-load.log"
        let generator = try await ChildProcess(
            name: "refreshkit-load", executable: options.binary("refreshkit-load"),
            arguments: [
                "--url", "ws://127.0.0.1:\(port)/", "--protocol", "refreshkit.v1", "--sessions", "\(Self.sessions)",
                "--rate", "\(options.rate)", "--warmup", "2", "--duration", "\(window)",
                "--mode", kind == .echo ? "echo" : "frames",
            ] + (kind == .refreshkit ? ["--frames", options.frames] : []),
            workingDirectory: options.root, log: log)
        let finished = await generator.wait(timeout: window + 120)
        await target.stop()
        guard finished,
            let line = generator.stdout.split(separator: "\n").last,
            let result = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
            let inputs = (result["inputs_sent"] as? NSNumber)?.intValue
        else {
            throw BenchError("refreshkit-load against \(kind.rawValue) under callgrind gave no result (log: \(log))")
        }
        let frames = (result["messages"] as? NSNumber)?.intValue ?? 0
        return (try Self.total(profile), inputs, frames)
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
