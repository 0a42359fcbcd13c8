import CLibCrypto
import Glibc

/// A PEM file read by OpenSSL: the one place `serve`'s TLS checks, `/ca.crt` and `refreshkit cert` open
/// certificates and keys (docs/HTTPS.md). The pointer read is the caller's to free (`X509_free`, `EVP_PKEY_free`).
enum PEMFile {
    enum Read {
        case read(OpaquePointer)
        /// The file could not be opened: `strerror`'s reason.
        case unreadable(String)
        /// The file holds no PEM of that kind (or a key with a passphrase).
        case notPEM
    }

    static func certificate(_ path: String) -> Read {
        read(path) { PEM_read_X509($0, nil, nil, nil) }
    }

    static func privateKey(_ path: String) -> Read {
        read(path) { PEM_read_PrivateKey($0, nil, nil, nil) }
    }

    private static func read(_ path: String, _ parse: (UnsafeMutablePointer<FILE>) -> OpaquePointer?) -> Read {
        guard let file = fopen(path, "r") else { return .unreadable(String(cString: strerror(errno))) }
        defer { fclose(file) }
        return parse(file).map(Read.read) ?? .notPEM
    }
}
