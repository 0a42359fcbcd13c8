/// `GET /ca` and `GET /ca.crt` (docs/HTTPS.md, "A certificate phones trust"): the CA of `refreshkit cert`, and a page
/// that says how a phone installs it. Both are answered over plain http too (``PlainRequest``): a phone that does not
/// trust the CA yet can fetch it without a certificate warning, and the fingerprint on the page and in the terminal
/// lets its owner check that what they install is this machine's.
enum AuthorityPage {
    static let pagePath = "/ca"
    static let certificatePath = "/ca.crt"
    /// What iOS and Android open as a CA certificate to install.
    static let certificateType = "application/x-x509-ca-cert"

    /// The page, naming the CA by its SHA-256 `fingerprint`.
    static func html(fingerprint: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Trust this RefreshKit server</title></head>
        <body>
        <h1>Trust this RefreshKit server</h1>
        <p>This server's certificate was signed by a CA made on this machine (<code>refreshkit cert</code>).
        Install that CA once and the demo opens over https on every address of the machine.</p>
        <p><a href="\(certificatePath)">Download the CA certificate</a><br>
        SHA-256 <code>\(fingerprint)</code> (the same as in the terminal that started the server).</p>
        <h2>iPhone and iPad</h2>
        <ol>
        <li>Open this page in Safari and tap the link above; allow the download.</li>
        <li>Settings → General → VPN &amp; Device Management: tap the downloaded profile, then Install.</li>
        <li>Settings → General → About → Certificate Trust Settings: turn on full trust for the RefreshKit CA.</li>
        </ol>
        <h2>Android</h2>
        <ol>
        <li>Tap the link above to download the certificate.</li>
        <li>Settings → Security (or Security &amp; privacy) → Encryption &amp; credentials → Install a certificate →
        CA certificate, and pick the downloaded file. The names of the menus vary with the phone's maker.</li>
        </ol>
        <p>Then open the https:// address the terminal shows. Remove the CA in the same settings when you are done:
        whoever holds its key (it stays in this machine's <code>.refreshkit/</code>) could sign for any site.</p>
        </body></html>

        """
    }
}
