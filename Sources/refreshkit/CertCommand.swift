import ArgumentParser
import Foundation
import RefreshAccess
import RefreshServer

/// `refreshkit cert`: a CA of this machine's own, made once, and a server certificate it signs for every name and
/// LAN address of this machine, made again when they change (docs/HTTPS.md, "A certificate phones trust").
struct CertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cert",
        abstract: "Make a local CA (once) and a server certificate for this machine's names and LAN addresses.",
        discussion: """
            Prints the files to pass to `serve` and the CA's fingerprint. A phone installs the CA once (`serve` \
            offers it at /ca); the server certificate is made again when an address or name is new or it is \
            within 30 days of its end (docs/HTTPS.md).
            """)

    @Option(help: ArgumentHelp("The folder the CA and the certificate are kept in.", valueName: "folder"))
    var dir = ".refreshkit"

    @Option(
        name: .customLong("name"),
        help: ArgumentHelp("Another host name or address the certificate names (repeatable).", valueName: "name"))
    var names: [String] = []

    func run() throws {
        var wanted = LocalCertificates.Names.ofThisMachine()
        for name in names {
            if IPAddress(name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) != nil {
                wanted.addresses.append(name.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
            } else {
                wanted.hosts.append(name.lowercased())
            }
        }
        let certificates = LocalCertificates(folder: dir)
        let report: LocalCertificates.Report
        do {
            report = try certificates.prepare(for: wanted, now: Int(time(nil)))
        } catch {
            throw ValidationError(error.description)
        }
        print("CA: \(certificates.authority) (\(report.madeAuthority ? "made now" : "kept"))")
        print("  SHA-256 \(report.authorityFingerprint)")
        print(
            "certificate: \(certificates.certificate) (\(report.madeCertificate.map { "made now: \($0)" } ?? "kept"))"
        )
        print("  for \((wanted.hosts + wanted.addresses).joined(separator: ", "))")
        print(
            "serve with: --tls-cert \(certificates.certificate) --tls-key \(certificates.privateKey)"
                + " --tls-ca \(certificates.authority)")
    }
}
