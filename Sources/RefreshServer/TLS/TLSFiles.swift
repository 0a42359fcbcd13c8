import CLibCrypto
import Glibc

/// The certificate and private key the server speaks TLS with (`serve --tls-cert PEM --tls-key PEM`,
/// docs/HTTPS.md): PEM files, the certificate first in its chain. `certificateAuthority` is the CA that signed it
/// when it is one of `refreshkit cert`'s (served at `/ca` for phones to install); nil for a certificate of one's own.
public struct TLSFiles: Sendable, Hashable {
    public var certificate: String
    public var privateKey: String
    public var certificateAuthority: String?

    public init(certificate: String, privateKey: String, certificateAuthority: String? = nil) {
        self.certificate = certificate
        self.privateKey = privateKey
        self.certificateAuthority = certificateAuthority
    }

    /// Why the files cannot serve TLS, or nil when they can: each must be readable PEM, and the key must be the
    /// certificate's (OpenSSL reads them, as lws will; lws's own failure would only say that the context failed).
    public func problem() -> String? {
        let parsed: OpaquePointer
        switch PEMFile.certificate(certificate) {
        case .read(let read): parsed = read
        case .unreadable(let reason): return "cannot read the TLS certificate '\(certificate)': \(reason)"
        case .notPEM: return "the TLS certificate '\(certificate)' is not a PEM certificate"
        }
        defer { X509_free(parsed) }
        let key: OpaquePointer
        switch PEMFile.privateKey(privateKey) {
        case .read(let read): key = read
        case .unreadable(let reason): return "cannot read the TLS key '\(privateKey)': \(reason)"
        case .notPEM: return "the TLS key '\(privateKey)' is not a PEM private key (or it has a passphrase)"
        }
        defer { EVP_PKEY_free(key) }
        guard X509_check_private_key(parsed, key) == 1 else {
            return "the TLS key '\(privateKey)' is not the key of the certificate '\(certificate)'"
        }
        if let certificateAuthority, AuthorityFile.read(certificateAuthority) == nil {
            return "cannot read the CA certificate '\(certificateAuthority)' as a PEM certificate"
        }
        return nil
    }
}
