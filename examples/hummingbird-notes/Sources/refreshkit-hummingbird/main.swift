// A Hummingbird app of its own (a notes board, `POST /notes`) with RefreshKit's list beside it
// (README, "In your own server"):
//
//     swift run refreshkit-hummingbird --port 8080     (or `make run-hummingbird`)
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import RefreshHummingbird
import RefreshSessions
import RefreshStore
import ServiceLifecycle

var options = ["--host": "127.0.0.1", "--port": "8080", "--web-root": "web", "--store": "", "--node": ""]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst(), let value = arguments.popFirst() {
    guard options[name] != nil else {
        FileHandle.standardError.write(Data("unknown option \(name)\n".utf8))
        exit(2)
    }
    options[name] = value
}
let host = options["--host"]!
let port = Int(options["--port"]!) ?? 8080

let board = NoteBoard(count: 45)
// `--store redis://HOST:PORT`: sessions in Redis, shared with other processes (`refreshkit serve --store` among them)
var sessions = SessionHost.Configuration.production
sessions.node = options["--node"]!
let store: StoreAddress?
do {
    store = options["--store"]!.isEmpty ? nil : try StoreAddress(options["--store"]!)
} catch {
    FileHandle.standardError.write(Data("refreshkit-hummingbird: \(error)\n".utf8))
    exit(2)
}
let refresh = RefreshService(configuration: sessions, source: board, store: store)

let router = Router()
router.add(middleware: refresh.pageFiles(webRoot: options["--web-root"]!))
// The app's own route: a note, its text the body, on top of the list at the next refresh.
router.post("/notes") { request, _ -> Response in
    let body = try await request.body.collect(upTo: 4096)
    let text = String(buffer: body).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { throw HTTPError(.badRequest, message: "a note needs some text") }
    let id = board.add(text, timeMicros: Int64(Date().timeIntervalSince1970 * 1_000_000))
    return Response(status: .created, body: ResponseBody(byteBuffer: ByteBuffer(string: id + "\n")))
}
router.get("/metrics") { _, _ in await refresh.metricsText() }

let sockets = Router(context: BasicWebSocketRequestContext.self)
refresh.addWebSocket(to: sockets)

let app = Application(
    router: router,
    server: .http1WebSocketUpgrade(webSocketRouter: sockets, configuration: .init(ws: refresh.webSocketConfiguration)),
    configuration: .init(address: .hostname(host, port: port)),
    onServerRunning: { channel in
        let url = "http://\(host):\(channel.localAddress?.port ?? port)"
        FileHandle.standardOutput.write(Data("listening on \(url)\n".utf8))
    })
// `refresh` after `app`: a group stops its services last first, so the pages hear 1001 (come back soon) before the
// server closes what is left.
let services = ServiceGroup(
    configuration: .init(services: [app, refresh], gracefulShutdownSignals: [.sigterm, .sigint], logger: app.logger))
try await services.run()
