import ArgumentParser
import CLibWebSockets
import Foundation
import LWSEcho

/// `lws-echo`: the transport's floor. The same libwebsockets, the same context settings and subprotocol name as
/// `refreshkit serve`, but each complete message is written straight back (``WebSocketEcho``, the same echo
/// that `refreshkit serve --echo-protocol` adds for Autobahn): no decoding, no session, no encoding. `refreshkit-load --mode echo` against it measures what the server costs over bare lws.
@main
struct EchoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lws-echo",
        abstract: "A bare libwebsockets echo server: the floor `refreshkit serve` is measured against.",
        discussion: """
            Prints 'listening on http://HOST:PORT' when ready; SIGTERM or SIGINT end it, and so does \
            --max-seconds. SIGUSR1 prints 'heap in_use=N free=N total=N' (bytes) on the libuv loop.
            """)

    /// lws's event loops, named as `refreshkit serve --event-loop` names them.
    enum EventLoop: String, CaseIterable, ExpressibleByArgument {
        case libuv
        case poll
    }

    @Option(help: "The address to bind.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port (0: pick a free one).")
    var port = 0

    @Option(name: .customLong("protocol"), help: "The WebSocket subprotocol to answer.")
    var subprotocol = "refreshkit.v1"

    @Option(help: ArgumentHelp("The process ends after this long, whatever happens.", valueName: "seconds"))
    var maxSeconds = 900

    @Option(help: "libuv (epoll, as refreshkit serve by default) or poll (lws's own loop).")
    var eventLoop: EventLoop = .libuv

    @Option(help: ArgumentHelp("Serve wss:// with this PEM certificate, as `refreshkit serve` does.", valueName: "pem"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "pem"))
    var tlsKey: String?

    func validate() throws {
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard maxSeconds >= 1 else { throw ValidationError("--max-seconds must be at least 1") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        alarm(UInt32(maxSeconds))

        // Everything lws points to lives until the process ends.
        var http = lws_protocols()
        http.name = UnsafePointer(strdup("http"))
        http.callback = lws_callback_http_dummy
        // The shared echo (LWSEcho), with a small receive buffer (the load's messages are small), writing
        // straight back as the server writes its frames.
        let echo = WebSocketEcho.entry(
            name: UnsafePointer(strdup(subprotocol)), receiveBufferSize: 4096, writes: .straightBack)
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 3)
        protocols.initialize(from: [http, echo, lws_protocols()], count: 3)

        var info = lws_context_creation_info()
        info.port = Int32(port)
        info.iface = UnsafePointer(strdup(host))
        info.protocols = UnsafePointer(protocols)
        // No keepalive of lws's ("validity": a ping 10 s after the last pong, whatever the traffic, so that a load's
        // thousand connections, opened together, were pinged together every 10 s, and each pong re-sorted one list
        // of them all): the server pings only connections that are quiet (`Keepalive`), which no load's are, and the
        // floor does no more than the server under load (docs/PERFORMANCE.md, "The echo's pings").
        info.pt_serv_buf_size = 16 * 1024
        info.gid = -1
        info.uid = -1
        info.options = rk_opt_validate_utf8() | rk_opt_fail_upon_unable_to_bind() | rk_opt_disable_ipv6()
        if let tlsCert, let tlsKey {
            // the server's TLS settings (ServiceLoop+Context.swift): the floor of `serve --tls-cert` (docs/HTTPS.md)
            info.options |= rk_opt_tls_global_init() | rk_opt_http_on_tls_port()
            info.ssl_cert_filepath = UnsafePointer(strdup(tlsCert))
            info.ssl_private_key_filepath = UnsafePointer(strdup(tlsKey))
            info.alpn = UnsafePointer(strdup("http/1.1"))
        }
        // The same event loop as the server's (ServiceLoop): libuv's epoll by default, lws's poll() on request.
        let loop: UnsafeMutablePointer<uv_loop_t>? = eventLoop == .libuv ? rk_uv_loop_create() : nil
        let foreignLoops = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        foreignLoops.initialize(to: loop.map { UnsafeMutableRawPointer($0) })
        if loop != nil {
            info.options |= rk_opt_libuv()
            info.foreign_loops = foreignLoops
        }
        lws_set_log_level(LLL_ERR, nil)
        guard let context = lws_create_context(&info) else {
            FileHandle.standardError.write(Data("lws-echo: could not listen on \(host):\(port)\n".utf8))
            throw ExitCode(1)
        }
        let bound = lws_get_vhost_by_name(context, "default").map { Int(lws_get_vhost_listen_port($0)) } ?? port
        let scheme = tlsCert == nil ? "http" : "https"
        FileHandle.standardOutput.write(Data("listening on \(scheme)://\(host):\(bound)\n".utf8))
        if let loop {
            // SIGUSR1 prints the heap's figures (the bench's memory per connection, docs/PERFORMANCE.md).
            let heapReport = UnsafeMutablePointer<uv_signal_t>.allocate(capacity: 1)
            uv_signal_init(loop, heapReport)
            uv_signal_start(heapReport, { _, _ in printHeapFigures() }, SIGUSR1)
            uv_unref(UnsafeMutableRawPointer(heapReport).assumingMemoryBound(to: uv_handle_t.self))
            uv_run(loop, UV_RUN_DEFAULT)
        } else {
            while lws_service(context, 0) >= 0 {}
        }
        rk_uv_destroy(context, loop)
    }
}

/// One line on stdout, `heap in_use=N free=N total=N` (bytes; glibc's `mallinfo2`, every arena).
private func printHeapFigures() {
    let heap = rk_heap_now()
    FileHandle.standardOutput.write(Data("heap in_use=\(heap.in_use) free=\(heap.free) total=\(heap.total)\n".utf8))
}
