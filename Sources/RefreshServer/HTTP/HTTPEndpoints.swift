import RefreshAccess

/// The server's few HTTP answers that are not files: decided here as values, written by the gate
/// (``Gatekeeper/filterHTTP(_:path:length:)``). Everything else goes on to the static files.
///
/// - `GET /qr.svg?text=…`: the QR code of a short text (the Share popover's session link) as SVG. Refused with
///   400 when `text` is missing, empty or longer than ``QRCode/maxTextBytes``. `Cache-Control: no-store`: a
///   session link is a key to the session and is kept out of caches.
/// - `GET /metrics`: the server's vital signs in Prometheus' text format (``ServerMetrics``,
///   docs/OPERATIONS.md), to loopback and the addresses of `--metrics-allow` only (``AddressAllowList``); 403
///   for anyone else.
/// - `GET /controls/index.json`: the user's control modules (``ControlsFolder``), `{"controls":[...]}`.
/// - `GET /ca`, `GET /ca.crt`: the CA of `refreshkit cert` and how to install it (``AuthorityPage``); 404 when the
///   server has none (`serve --tls-ca`).
struct HTTPEndpoints: Sendable {
    /// Who may read `/metrics`.
    var metricsAllow = AddressAllowList()
    /// The CA certificate (PEM) and its fingerprint, when the server serves one (`serve --tls-ca`).
    var authority: (pem: String, fingerprint: String)?

    /// A request as the gate read it.
    struct Request: Sendable, Equatable {
        var path: String
        /// The `text` query argument, URL-decoded by lws; nil when absent.
        var text: String? = nil
        /// Who asks: the real client behind the trusted proxies.
        var client = ClientAddress(peer: "127.0.0.1")
    }

    /// A complete response: one write of headers and body.
    struct Response: Sendable, Equatable {
        var status: Int32
        var contentType: String
        var body: String
        /// Why a request was refused, for the log; nil for a success.
        var refusal: String?

        static func refused(_ status: Int32, _ reason: String) -> Response {
            Response(status: status, contentType: "text/plain; charset=utf-8", body: reason + "\n", refusal: reason)
        }
    }

    static let qrCodePath = "/qr.svg"
    static let metricsPath = "/metrics"

    /// The paths answered here (the static files never see them).
    static let paths: Set<String> = [
        qrCodePath, metricsPath, ControlsFolder.indexPath, AuthorityPage.pagePath, AuthorityPage.certificatePath,
    ]

    /// The response for `request`, or nil when the path is not one of ``paths``; `metrics` writes the metrics
    /// page, called only for a peer that may read it; `controls` lists the user's control modules.
    func respond(
        to request: Request, metrics: () -> String = { "" }, controls: () -> [String] = { [] }
    ) -> Response? {
        switch request.path {
        case ControlsFolder.indexPath:
            return Response(
                status: 200, contentType: "application/json", body: ControlsFolder.indexJSON(controls()), refusal: nil)
        case Self.metricsPath:
            guard metricsAllow.allows(request.client) else {
                return .refused(403, "metrics are served to loopback and the addresses of --metrics-allow only")
            }
            return Response(
                status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: metrics(), refusal: nil)
        case Self.qrCodePath:
            guard let text = request.text, !text.isEmpty else {
                return .refused(400, "qr.svg needs ?text=… (the text to encode, 1 to \(QRCode.maxTextBytes) bytes)")
            }
            guard let code = QRCode(text) else {
                return .refused(400, "qr.svg encodes at most \(QRCode.maxTextBytes) bytes of text")
            }
            return Response(status: 200, contentType: "image/svg+xml", body: code.svg, refusal: nil)
        case AuthorityPage.pagePath, AuthorityPage.certificatePath:
            guard let authority else {
                return .refused(404, "this server offers no CA of its own (serve --tls-ca, docs/HTTPS.md)")
            }
            return request.path == AuthorityPage.pagePath
                ? Response(
                    status: 200, contentType: "text/html; charset=utf-8",
                    body: AuthorityPage.html(fingerprint: authority.fingerprint), refusal: nil)
                : Response(status: 200, contentType: AuthorityPage.certificateType, body: authority.pem, refusal: nil)
        default:
            return nil
        }
    }
}
