import Foundation

/// The page's cost: bench/page_bench.py (Playwright + Debian's Chromium) against a fresh server.
struct PageBench {
    let options: BenchOptions
    let serverBench: ServerBench
    /// Names the server's and the script's logs.
    var label = "page"
    /// More arguments for page_bench.py (`--external`: ``PageRowsBench``).
    var scriptArguments: [String] = []

    func run() async -> [String: Any] {
        let python = options.python.hasPrefix("/") ? options.python : options.root + "/" + options.python
        let script = options.root + "/bench/page_bench.py"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script)
        else {
            return unavailable("no \(options.python) (run `make test-deps`) or no bench/page_bench.py")
        }
        let target: ServerBench.Target
        do { target = try await serverBench.startTarget(.refreshkit, label: label) } catch {
            return unavailable("server did not start: \(error)")
        }
        let result = await drive(target, python: python, script: script)
        await target.process.stop()
        return result
    }

    /// page_bench.py against the started server.
    private func drive(_ target: ServerBench.Target, python: String, script: String) async -> [String: Any] {
        let log = options.logDirectory + "/\(label).log"
        do {
            let process = try await ChildProcess(
                name: "page_bench", executable: python,
                arguments: [script, "--url", "http://127.0.0.1:\(target.port)/"] + scriptArguments,
                workingDirectory: options.root, log: log)
            guard await process.wait(timeout: 120) else { return unavailable("page_bench.py timed out (log: \(log))") }
            let text = process.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let line = text.split(separator: "\n").last,
                let result = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            else {
                return unavailable("page_bench.py printed no result (\(process.status); log: \(log))")
            }
            return result
        } catch {
            return unavailable("could not run page_bench.py: \(error)")
        }
    }

    private func unavailable(_ why: String) -> [String: Any] {
        ["ms_per_frame": NSNull(), "fps": NSNull(), "note": why]
    }
}
