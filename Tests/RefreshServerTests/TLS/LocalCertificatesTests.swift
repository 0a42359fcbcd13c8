import Foundation
import Testing

@testable import RefreshServer

/// `refreshkit cert`'s CA and server certificate (docs/HTTPS.md, "A certificate phones trust"): the CA is made once
/// and kept; the server certificate is for every name asked, made again for a new address or near its end, and
/// serves: ``TLSFiles/problem()`` (OpenSSL's own check that the key is the certificate's) finds nothing.
@Suite struct LocalCertificatesTests {
    let now = 1_800_000_000  // 2027-01-15
    let names = LocalCertificates.Names(
        hosts: ["localhost", "phone-test.local"], addresses: ["127.0.0.1", "10.1.2.3"])

    private func folder() -> String {
        let path = NSTemporaryDirectory() + "refreshkit-cert-\(UUID().uuidString)"
        return path
    }

    @Test func theCAIsMadeOnceAndTheCertificateAgainOnlyWhenItMustBe() throws {
        let certificates = LocalCertificates(folder: folder())
        defer { try? FileManager.default.removeItem(atPath: certificates.folder) }
        let first = try certificates.prepare(for: names, now: now)
        #expect(first.madeAuthority && first.madeCertificate != nil)
        #expect(first.authorityFingerprint.split(separator: ":").count == 32)
        #expect(certificates.files.problem() == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: certificates.authorityKey)[.posixPermissions]
        #expect(mode as? Int == 0o600, "the CA's key is its owner's only")

        let again = try certificates.prepare(for: names, now: now + 86_400)
        #expect(!again.madeAuthority && again.madeCertificate == nil)
        #expect(again.authorityFingerprint == first.authorityFingerprint)

        var moved = names
        moved.addresses.append("192.168.7.9")
        let renewed = try certificates.prepare(for: moved, now: now + 86_400)
        #expect(!renewed.madeAuthority && renewed.madeCertificate?.contains("192.168.7.9") == true)
        #expect(renewed.authorityFingerprint == first.authorityFingerprint, "the phones' CA stays")

        let late = try certificates.prepare(for: moved, now: now + 86_400 * (LocalCertificates.serverDays - 10))
        #expect(late.madeCertificate?.contains("expires") == true)
        #expect(certificates.files.problem() == nil)
    }

    @Test func filesThatCannotServeSaySo() throws {
        let certificates = LocalCertificates(folder: folder())
        defer { try? FileManager.default.removeItem(atPath: certificates.folder) }
        _ = try certificates.prepare(for: names, now: now)
        let swapped = TLSFiles(certificate: certificates.certificate, privateKey: certificates.authorityKey)
        #expect(swapped.problem()?.contains("is not the key of the certificate") == true)
        let missing = TLSFiles(certificate: certificates.folder + "/none.pem", privateKey: certificates.privateKey)
        #expect(missing.problem()?.contains("cannot read the TLS certificate") == true)
        let notPEM = TLSFiles(certificate: certificates.privateKey, privateKey: certificates.privateKey)
        #expect(notPEM.problem()?.contains("is not a PEM certificate") == true)
    }
}
