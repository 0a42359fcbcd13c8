// A Hummingbird app of its own (a notes board, `POST /notes`) with RefreshKit's list beside it
// (README, "In your own server"):
//
//     swift run refreshkit-hummingbird --port 8080     (or `make run-hummingbird`)
//
// Its front door is the one `refreshkit serve` has (docs/HARDENING.md, "Who reaches what"), with the same options:
// `--trusted-proxy ADDR[/PREFIX]`, `--client-address-header x-forwarded-for|forwarded`, `--allow-origin ORIGIN`,
// `--metrics-allow ADDR[/PREFIX]` and `--post-allow ADDR[/PREFIX]` (also spelt `--feed-post-allow`), each repeatable
// but the header. Built with the TLS trait (`make run-hummingbird TLS=1`), `--tls-cert PEM --tls-key PEM` serve https
// and wss as `refreshkit serve`'s do, with the ecosystem's TLS (NIOSSL; docs/HTTPS.md, "In a Hummingbird app").
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import RefreshAccess
import RefreshHummingbird
import RefreshSessions
import RefreshStore
import ServiceLifecycle

#if TLS
    import HummingbirdTLS
    import NIOSSL
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("refreshkit-hummingbird: \(message)\n".utf8))
    exit(2)
}

var options = [
    "--host": "127.0.0.1", "--port": "8080", "--web-root": "web", "--store": "", "--node": "", "--tls-cert": "",
    "--tls-key": "",
    "--client-address-header": TrustedProxies.Header.xForwardedFor.rawValue,
]
var lists: [String: [String]] = [
    "--trusted-proxy": [], "--allow-origin": [], "--metrics-allow": [], "--post-allow": [],
]
var arguments = CommandLine.arguments.dropFirst()
while let given = arguments.popFirst() {
    let name = given == "--feed-post-allow" ? "--post-allow" : given
    guard options[name] != nil || lists[name] != nil else { fail("unknown option \(given)") }
    guard let value = arguments.popFirst() else { fail("\(given) needs a value") }
    if lists[name] != nil { lists[name]!.append(value) } else { options[name] = value }
}
let host = options["--host"]!
let port = Int(options["--port"]!) ?? 8080
guard options["--tls-cert"]!.isEmpty == options["--tls-key"]!.isEmpty else {
    fail("--tls-cert and --tls-key go together")
}
let servesTLS = !options["--tls-cert"]!.isEmpty
#if !TLS
    if servesTLS { fail("this build serves no TLS: build it with the TLS trait (make run-hummingbird TLS=1)") }
#endif

// The front door: the same checks, with the same words, as `refreshkit serve`'s.
guard let header = TrustedProxies.Header(rawValue: options["--client-address-header"]!.lowercased()) else {
    fail("--client-address-header is x-forwarded-for or forwarded, got '\(options["--client-address-header"]!)'")
}
let proxies: TrustedProxies
switch TrustedProxies.parse(lists["--trusted-proxy"]!, header: header) {
case .success(let parsed): proxies = parsed
case .failure(let bad):
    fail("--trusted-proxy needs an IPv4 or IPv6 address or network (127.0.0.1, 10.0.0.0/8), got '\(bad.entry)'")
}
func allowList(_ option: String, _ entries: [String]) -> AddressAllowList {
    switch AddressAllowList.parse(entries) {
    case .success(let parsed): return parsed
    case .failure(let bad):
        fail("\(option) needs an IPv4 or IPv6 address or network (10.0.0.5, 10.0.0.0/8), got '\(bad.entry)'")
    }
}
let metricsAllow = allowList("--metrics-allow", lists["--metrics-allow"]!)
let writeAllow = allowList("--post-allow", lists["--post-allow"]!)
let allowedOrigins = lists["--allow-origin"]!
if let bad = OriginPolicy.invalidOrigins(allowedOrigins).first {
    fail("--allow-origin needs scheme://host[:port] (e.g. https://example.org), got '\(bad)'")
}
/// The door of this app once bound to `port`: its own origins are this machine's names on that port.
let frontDoor: @Sendable (Int) -> FrontDoor = { port in
    .local(
        boundTo: host, port: port, scheme: servesTLS ? "https" : "http", allowedOrigins: allowedOrigins,
        proxies: proxies, metricsAllow: metricsAllow, writeAllow: writeAllow)
}

let board = NoteBoard(count: 45)
// `--store redis://HOST:PORT`: sessions in Redis, shared with other processes (`refreshkit serve --store` among them).
// Its password is never on the command line (`ps` shows it to every user; a password in the URL is refused): it comes
// from the environment, REFRESHKIT_STORE_PASSWORD or REFRESHKIT_STORE_PASSWORD_FILE=PATH (a file only its owner reads),
// with REFRESHKIT_STORE_USER for a Redis ACL user (docs/SCALING.md, "The store's password").
var sessions = SessionHost.Configuration.production
sessions.node = options["--node"]!
let store: StoreAddress?
do {
    store =
        options["--store"]!.isEmpty
        ? nil : try StoreAddress(options["--store"]!, credentials: StoreCredentials.fromEnvironment())
} catch {
    fail("\(error)")
}
let refresh = RefreshService(configuration: sessions, source: board, store: store, frontDoor: frontDoor(port))

let router = Router(context: RefreshRequestContext.self)
// First: the page's files, and the security headers on every answer, the routes' below included.
router.add(middleware: refresh.pageFiles(webRoot: options["--web-root"]!))
// The app's own route: a note, `{"text": "…"}`, on top of the list at the next refresh. A write, so the front door
// first: JSON only, from this machine (or `--post-allow`), never from another site's page.
router.post("/notes") { request, context -> Response in
    try refresh.admitWrite(request, context: context)
    let text = try NoteText.read(try await NoteText.body(of: request))
    let id = board.add(text, timeMicros: Int64(Date().timeIntervalSince1970 * 1_000_000))
    return Response(
        status: .created, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"id":"\#(id)"}"#)))
}
router.get("/metrics") { request, context -> String in
    guard refresh.admitsMetrics(request, context: context) else {
        throw RequestRefused(
            status: .forbidden, code: "forbidden",
            message: "/metrics is read from loopback and the addresses of --metrics-allow only "
                + "(this client: \(refresh.client(of: request, context: context)))")
    }
    return await refresh.metricsText()
}

let sockets = Router(context: RefreshWebSocketRequestContext.self)
refresh.addWebSocket(to: sockets)

// Hummingbird's HTTP/1.1 server with WebSocket upgrades, the front door before them (403 for another site's page);
// inside TLS with `--tls-cert`, HTTP/1.1 alone in ALPN as `refreshkit serve` offers (docs/HTTPS.md).
var server = refresh.http1WebSocketUpgrade(webSocketRouter: sockets)
#if TLS
    if servesTLS {
        let (certificate, key) = (options["--tls-cert"]!, options["--tls-key"]!)
        do {
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            tls.applicationProtocols = ["http/1.1"]
            server = try .tls(server, tlsConfiguration: tls)
        } catch {
            fail("cannot serve TLS with --tls-cert '\(certificate)' and --tls-key '\(key)': \(error)")
        }
    }
#endif

let app = Application(
    router: router,
    server: server,
    configuration: .init(address: .hostname(host, port: port)),
    onServerRunning: { channel in
        let bound = channel.localAddress?.port ?? port
        refresh.frontDoor = frontDoor(bound)  // `--port 0`: the page's origin has the port the system chose
        FileHandle.standardOutput.write(Data("listening on \(servesTLS ? "https" : "http")://\(host):\(bound)\n".utf8))
    })
// `refresh` after `app`: a group stops its services last first, so the pages hear 1001 (come back soon) before the
// server closes what is left.
let services = ServiceGroup(
    configuration: .init(services: [app, refresh], gracefulShutdownSignals: [.sigterm, .sigint], logger: app.logger))
try await services.run()
