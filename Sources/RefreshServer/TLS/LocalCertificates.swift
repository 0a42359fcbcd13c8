import CLibCrypto
import Foundation
import Glibc

/// A certificate authority of this machine's own and the server certificate it signs, kept in a folder
/// (`.refreshkit/` for `make run TLS=1`): what `refreshkit cert` makes, so that a phone that installs the CA once
/// opens the demo over https on every address of the machine (docs/HTTPS.md, "A certificate phones trust").
///
/// The CA is made once and kept: a phone trusts it, so a new one would mean installing again. The server certificate
/// is made again whenever it does not name one of the machine's names and addresses (a new Wi-Fi), or has less than
/// `renewDays` left. Keys are ECDSA P-256; the CA's key is written readable by its owner only, and never leaves the
/// folder. Every step is OpenSSL's (libcrypto): nothing about X.509 is written here by hand.
public struct LocalCertificates: Sendable {
    public let folder: String
    public var authority: String { folder + "/ca.pem" }
    public var certificate: String { folder + "/server.pem" }
    public var privateKey: String { folder + "/server-key.pem" }
    var authorityKey: String { folder + "/ca-key.pem" }

    /// A server certificate lasts 825 days, the most Apple's platforms accept for a TLS server certificate (Apple,
    /// "Requirements for trusted certificates in iOS 13 and macOS 10.15", HT210176); the CA ten years.
    static let serverDays = 825
    static let authorityDays = 3650
    /// A server certificate with fewer days left than this is made again.
    static let renewDays = 30

    /// The names and addresses a server certificate is for.
    public struct Names: Sendable, Hashable {
        public var hosts: [String]
        public var addresses: [String]

        public init(hosts: [String], addresses: [String]) {
            self.hosts = hosts
            self.addresses = addresses
        }

        /// This machine's: `localhost`, its host name and `<name>.local`, loopback and every LAN IPv4 address.
        public static func ofThisMachine() -> Names {
            var hosts = ["localhost"]
            var name = [CChar](repeating: 0, count: 256)
            if gethostname(&name, name.count - 1) == 0 {
                let hostName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    .lowercased()
                if !hostName.isEmpty, hostName != "localhost" {
                    hosts.append(hostName)
                    if !hostName.contains(".") { hosts.append(hostName + ".local") }
                }
            }
            return Names(hosts: hosts, addresses: ["127.0.0.1", "::1"] + NetworkInterfaces.lanIPv4Addresses())
        }
    }

    /// What ``prepare(for:now:)`` did.
    public struct Report: Sendable, Hashable {
        /// The CA was made now (a phone must install it before it trusts the server).
        public var madeAuthority: Bool
        /// Why the server certificate was made now; nil when the one kept still names everything.
        public var madeCertificate: String?
        /// SHA-256 of the CA certificate (DER), in colon-separated hex: what a phone shows before it installs it.
        public var authorityFingerprint: String
    }

    public init(folder: String) {
        self.folder = folder
    }

    /// Makes the CA if the folder has none, and the server certificate if it is missing, does not name every one of
    /// `names`, or is about to expire (`now`: seconds since 1970).
    public func prepare(for names: Names, now: Int) throws(CertificateError) -> Report {
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw CertificateError("cannot make the folder '\(folder)': \(String(cString: strerror(errno)))")
        }
        var madeAuthority = false
        if access(authority, R_OK) != 0 || access(authorityKey, R_OK) != 0 {
            try makeAuthority(now: now)
            madeAuthority = true
        }
        let (authorityCertificate, authorityPrivateKey) = try readAuthority()
        defer {
            X509_free(authorityCertificate)
            EVP_PKEY_free(authorityPrivateKey)
        }
        let reason =
            madeAuthority ? "a new CA" : try reasonToRenew(names: names, now: now, authority: authorityCertificate)
        if let reason {
            try makeServerCertificate(
                names: names, now: now, authority: authorityCertificate, authorityKey: authorityPrivateKey)
            return Report(
                madeAuthority: madeAuthority, madeCertificate: reason,
                authorityFingerprint: Self.fingerprint(authorityCertificate))
        }
        return Report(
            madeAuthority: false, madeCertificate: nil, authorityFingerprint: Self.fingerprint(authorityCertificate))
    }

    /// The files for `serve`: the server certificate and key, and the CA to offer at `/ca`.
    public var files: TLSFiles {
        TLSFiles(certificate: certificate, privateKey: privateKey, certificateAuthority: authority)
    }

    // MARK: - Making

    private func makeAuthority(now: Int) throws(CertificateError) {
        let key = try Self.newKey()
        defer { EVP_PKEY_free(key) }
        let certificate = try Self.newCertificate(
            commonName: "RefreshKit local CA (\(Names.ofThisMachine().hosts.last ?? "this machine"))", key: key,
            now: now, days: Self.authorityDays)
        defer { X509_free(certificate) }
        guard X509_set_issuer_name(certificate, X509_get_subject_name(certificate)) == 1 else {
            throw CertificateError("cannot name the CA's issuer")
        }
        try Self.addExtensions(
            to: certificate, issuer: certificate,
            [
                (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
            ])
        try Self.sign(certificate, with: key)
        try Self.writeKey(key, to: authorityKey)
        try Self.writeCertificate(certificate, to: authority)
    }

    private func makeServerCertificate(
        names: Names, now: Int, authority issuer: OpaquePointer, authorityKey: OpaquePointer
    ) throws(CertificateError) {
        let key = try Self.newKey()
        defer { EVP_PKEY_free(key) }
        let certificate = try Self.newCertificate(
            commonName: names.hosts.first ?? "localhost", key: key, now: now, days: Self.serverDays)
        defer { X509_free(certificate) }
        guard X509_set_issuer_name(certificate, X509_get_subject_name(issuer)) == 1 else {
            throw CertificateError("cannot name the certificate's issuer")
        }
        let alternativeNames = (names.hosts.map { "DNS:" + $0 } + names.addresses.map { "IP:" + $0 })
            .joined(separator: ",")
        try Self.addExtensions(
            to: certificate, issuer: issuer,
            [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, "serverAuth"),
                (NID_subject_alt_name, alternativeNames),
                (NID_authority_key_identifier, "keyid"),
            ])
        try Self.sign(certificate, with: authorityKey)
        try Self.writeKey(key, to: privateKey)
        try Self.writeCertificate(certificate, to: self.certificate)
    }

    /// Why the kept server certificate will not do (nil: it will).
    private func reasonToRenew(names: Names, now: Int, authority: OpaquePointer) throws(CertificateError) -> String? {
        let kept: OpaquePointer
        switch PEMFile.certificate(certificate) {
        case .read(let read): kept = read
        case .unreadable: return "no server certificate yet"
        case .notPEM: return "the server certificate could not be read"
        }
        defer { X509_free(kept) }
        guard let issuerKey = X509_get0_pubkey(authority), X509_verify(kept, issuerKey) == 1 else {
            return "the server certificate is not the CA's"
        }
        var days: Int32 = 0
        var seconds: Int32 = 0
        guard let moment = ASN1_TIME_adj(nil, time_t(now), 0, 0) else { return "the time could not be read" }
        defer { ASN1_STRING_free(moment) }
        if ASN1_TIME_diff(&days, &seconds, moment, X509_get0_notAfter(kept)) != 1 || days < Self.renewDays {
            return "the server certificate expires within \(Self.renewDays) days"
        }
        for host in names.hosts where X509_check_host(kept, host, host.utf8.count, 0, nil) != 1 {
            return "the server certificate does not name \(host)"
        }
        for address in names.addresses where X509_check_ip_asc(kept, address, 0) != 1 {
            return "the server certificate does not name \(address)"
        }
        return nil
    }

    private func readAuthority() throws(CertificateError) -> (OpaquePointer, OpaquePointer) {
        let certificate: OpaquePointer
        switch PEMFile.certificate(authority) {
        case .read(let read): certificate = read
        case .unreadable(let reason): throw CertificateError("cannot read the CA '\(authority)': \(reason)")
        case .notPEM: throw CertificateError("the CA '\(authority)' is not a PEM certificate")
        }
        guard case .read(let key) = PEMFile.privateKey(authorityKey) else {
            X509_free(certificate)
            throw CertificateError("cannot read the CA's key '\(authorityKey)' as a PEM private key")
        }
        guard X509_check_private_key(certificate, key) == 1 else {
            X509_free(certificate)
            EVP_PKEY_free(key)
            throw CertificateError("the CA's key '\(authorityKey)' is not the key of '\(authority)'")
        }
        return (certificate, key)
    }

    // MARK: - OpenSSL, one call each

    private static func newKey() throws(CertificateError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw CertificateError("no EC keys") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw CertificateError("cannot make a P-256 key") }
        return key
    }

    private static func newCertificate(commonName: String, key: OpaquePointer, now: Int, days: Int)
        throws(CertificateError) -> OpaquePointer
    {
        guard let certificate = X509_new() else { throw CertificateError("cannot make a certificate") }
        var moment = time_t(now)
        var serial = [UInt8](repeating: 0, count: 16)  // the first byte 0: a positive serial
        let ok =
            X509_set_version(certificate, 2) == 1  // v3
            && RAND_bytes(&serial[1], 15) == 1
            && BN_bin2bn(serial, Int32(serial.count), nil).map { number in
                defer { BN_free(number) }
                return BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil
            } == true
            // valid from an hour ago, so that a phone whose clock is a little behind accepts it
            && X509_time_adj_ex(X509_getm_notBefore(certificate), 0, -3600, &moment) != nil
            && X509_time_adj_ex(X509_getm_notAfter(certificate), Int32(days), 0, &moment) != nil
            && X509_set_pubkey(certificate, key) == 1
            && X509_NAME_add_entry_by_txt(
                X509_get_subject_name(certificate), "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1
        guard ok else {
            X509_free(certificate)
            throw CertificateError("cannot fill in a certificate")
        }
        return certificate
    }

    private static func addExtensions(
        to certificate: OpaquePointer, issuer: OpaquePointer, _ extensions: [(Int32, String)]
    ) throws(CertificateError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer, certificate, nil, nil, 0)
        for (nid, value) in extensions {
            guard let made = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
                throw CertificateError("cannot make the extension \(String(cString: OBJ_nid2sn(nid))) = \(value)")
            }
            defer { X509_EXTENSION_free(made) }
            guard X509_add_ext(certificate, made, -1) == 1 else {
                throw CertificateError("cannot add the extension \(String(cString: OBJ_nid2sn(nid)))")
            }
        }
    }

    private static func sign(_ certificate: OpaquePointer, with key: OpaquePointer) throws(CertificateError) {
        guard X509_sign(certificate, key, EVP_sha256()) > 0 else { throw CertificateError("cannot sign a certificate") }
    }

    private static func writeKey(_ key: OpaquePointer, to path: String) throws(CertificateError) {
        unlink(path)  // made anew with the mode below, whatever the old file's was
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0, let file = fdopen(descriptor, "w") else {
            throw CertificateError("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        let written = PEM_write_PrivateKey(file, key, nil, nil, 0, nil, nil)
        guard fclose(file) == 0, written == 1 else { throw CertificateError("cannot write the key '\(path)'") }
    }

    private static func writeCertificate(_ certificate: OpaquePointer, to path: String) throws(CertificateError) {
        guard let file = fopen(path, "w") else {
            throw CertificateError("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        let written = PEM_write_X509(file, certificate)
        guard fclose(file) == 0, written == 1 else { throw CertificateError("cannot write '\(path)'") }
    }

    static func fingerprint(_ certificate: OpaquePointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { byte in
            let digits = Array("0123456789ABCDEF")
            return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0f)])
        }.joined(separator: ":")
    }
}

/// Why `refreshkit cert` could not make or read a certificate (the text says which file and what).
public struct CertificateError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A CA certificate file as `/ca.crt` serves it: its PEM text and its SHA-256 fingerprint.
enum AuthorityFile {
    static func read(_ path: String) -> (pem: String, fingerprint: String)? {
        guard case .read(let certificate) = PEMFile.certificate(path) else { return nil }
        defer { X509_free(certificate) }
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return (pem, LocalCertificates.fingerprint(certificate))
    }
}
