import Foundation

/// The engine step's cost in instructions, counted by callgrind (valgrind), when valgrind is installed.
///
/// Steps per second depend on how busy the host is (on this 2-vCPU VM the same binary has measured 1.3–2.4 M
/// from one run to the next); the instruction count of the same binary is the same on any host. The step
/// loop (`--profile-engine`) runs twice under callgrind, 20 000 and 40 000 steps, and the difference of the
/// totals ÷ 20 000 leaves start-up and set-up out. It runs a `strip -g` copy of the bench (``strippedCopy(of:as:)``).
enum InstructionCount {
    static let shortRun = 20_000
    static let longRun = 40_000

    /// Instructions per step, or nil when valgrind is not on `PATH`.
    static func perStep(bench: String, logDirectory: String) async throws -> Double? {
        guard let valgrind = executable(named: "valgrind") else { return nil }
        let copy = try strippedCopy(of: bench, as: "\(logDirectory)/refreshkit-bench-stripped")
        let short = try await total(valgrind, copy, steps: shortRun, logDirectory)
        let long = try await total(valgrind, copy, steps: longRun, logDirectory)
        return Double(long - short) / Double(longRun - shortRun)
    }

    /// The instructions callgrind counted in one run of `steps` steps.
    private static func total(_ valgrind: String, _ bench: String, steps: Int, _ logDirectory: String) async throws
        -> Int
    {
        let profile = "\(logDirectory)/callgrind.\(steps).out"
        let run = try await ChildProcess(
            name: "callgrind", executable: valgrind,
            arguments: [
                "--tool=callgrind", "--callgrind-out-file=\(profile)", bench, "--profile-engine", String(steps),
            ],
            workingDirectory: logDirectory, log: profile + ".log")
        guard await run.wait(timeout: 600), run.succeeded else {
            throw BenchError("callgrind of \(steps) engine steps failed (see \(profile).log)")
        }
        // The profile's header has `summary: <instructions>` (the only event counted by default, Ir).
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        for line in text.split(separator: "\n", maxSplits: 64) where line.hasPrefix("summary:") {
            if let count = Int(line.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces)) { return count }
        }
        throw BenchError("no 'summary:' line in \(profile)")
    }

    /// A copy of `binary` at `path` without debug information (`strip -g`), or `binary` itself when strip is
    /// missing: valgrind 3.19 gives up on the debug information of binaries that link swift-prometheus ("Possibly
    /// corrupted debuginfo file"); the instructions are the same, only the symbol names go.
    static func strippedCopy(of binary: String, as path: String) throws -> String {
        guard let strip = executable(named: "strip") else { return binary }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: binary, toPath: path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strip)
        process.arguments = ["-g", path]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? path : binary
    }

    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
