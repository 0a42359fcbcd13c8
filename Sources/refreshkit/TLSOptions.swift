import ArgumentParser
import RefreshServer

/// `serve`'s TLS flags (docs/HTTPS.md): a certificate and its key make the port speak https and wss.
struct TLSOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A PEM certificate (its chain after it) to serve https:// and wss:// with; needs --tls-key.",
            valueName: "pem"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert (no passphrase).", valueName: "pem"))
    var tlsKey: String?

    @Option(
        help: ArgumentHelp(
            "The CA certificate that signed --tls-cert, served at /ca for phones to install (refreshkit cert's).",
            valueName: "pem"))
    var tlsCa: String?

    func validate() throws {
        switch (tlsCert, tlsKey) {
        case (nil, nil):
            if tlsCa != nil { throw ValidationError("--tls-ca needs --tls-cert and --tls-key") }
        case (_?, nil): throw ValidationError("--tls-cert needs --tls-key")
        case (nil, _?): throw ValidationError("--tls-key needs --tls-cert")
        case (_?, _?): break
        }
    }

    var files: TLSFiles? {
        guard let tlsCert, let tlsKey else { return nil }
        return TLSFiles(certificate: tlsCert, privateKey: tlsKey, certificateAuthority: tlsCa)
    }
}
