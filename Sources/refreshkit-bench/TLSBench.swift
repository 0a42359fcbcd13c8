import Foundation

/// `refreshkit cert`'s files in a folder (docs/HTTPS.md): the certificate both targets serve and the CA the load
/// generator trusts.
struct CertificateFolder {
    let folder: String
    var certificate: String { folder + "/server.pem" }
    var key: String { folder + "/server-key.pem" }
    var authority: String { folder + "/ca.pem" }

    /// Made by the measured build's own `refreshkit cert`, as `make run TLS=1` makes them.
    static func make(in folder: String, options: BenchOptions) async throws -> CertificateFolder {
        let log = options.logDirectory + "/tls-cert.log"
        let cert = try await ChildProcess(
            name: "refreshkit cert", executable: options.binary("refreshkit"), arguments: ["cert", "--dir", folder],
            workingDirectory: options.root, log: log)
        guard await cert.wait(timeout: 60), FileManager.default.fileExists(atPath: folder + "/server.pem") else {
            throw BenchError("refreshkit cert made no certificate (\(cert.status); log: \(log))")
        }
        return CertificateFolder(folder: folder)
    }
}

/// The server and the echo over TLS (docs/HTTPS.md, "Measured"): both serve wss:// with one certificate of
/// `refreshkit cert`, and the load generator's sessions check it against the CA. Turn by turn, as the plain load
/// (``ServerBench/loadTurnByTurn(sessions:serverFirst:)``), at ``sessions``, each round: the CPU per input of the
/// two, where OpenSSL's work on every message is on both sides of the ratio.
struct TLSBench {
    static let sessions = 100

    let options: BenchOptions
    let tls: CertificateFolder

    /// Every round's pair of runs, and notes for the runs that failed.
    func run() async -> (rounds: [Targets.Round], notes: [String]) {
        let bench = ServerBench(options: options, tls: tls)
        var rounds: [Targets.Round] = []
        var notes: [String] = []
        for round in 1...options.rounds {
            say(
                "TLS: server and echo over wss, \(Self.sessions) sessions × \(Int(options.rate)) Hz, turn by turn "
                    + "(round \(round) of \(options.rounds))…")
            do {
                var pair = Targets.Round()
                (pair.server, pair.echo) = try await bench.loadTurnByTurn(
                    sessions: Self.sessions, serverFirst: round % 2 == 1)
                rounds.append(pair)
            } catch {
                say("TLS round \(round): \(error)")
                notes.append("TLS round \(round): \(error)")
                rounds.append(Targets.Round())
            }
        }
        return (rounds, notes)
    }
}
