import CLibWebSockets
import Logging
import RefreshAccess
import RefreshKit
import RefreshSessions
import RefreshWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Making the libwebsockets context: the listening socket, the static mount, the `refreshkit.v1` protocol and the
// event loop, and the few facts about the bound address the rest of the server needs.
extension ServiceLoop {
    /// Creates the context: binds the port, sets up the static mount and the `refreshkit.v1` protocol.
    func create() throws(ServerError) {
        guard let root = realpath(configuration.webRoot, nil) else {
            throw .webRootNotFound(configuration.webRoot)
        }
        let webRoot = String(cString: root)
        free(root)
        var status = stat()
        guard stat(webRoot, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw .webRootNotFound(configuration.webRoot)
        }

        let controlsRoot = try Self.controlsFolder(configuration.controlsRoot)

        var http = lws_protocols()
        http.name = resources.string("http")
        http.callback = httpGateCallback  // Origin, connection limits and static paths, then lws's dummy
        var refreshKit = lws_protocols()
        refreshKit.name = resources.string(Self.subprotocol)
        refreshKit.callback = refreshKitProtocolCallback
        refreshKit.per_session_data_size = ServiceLoop.perConnectionBytes
        refreshKit.rx_buffer_size = ReceiveBuffer.bytes
        // One send() may carry a whole frame; larger messages are still sent, lws buffers the rest.
        refreshKit.tx_packet_size = 64 * 1024
        let echo = configuration.hardening.echoProtocol ? [EchoProtocol.entry(resources)] : []
        let protocols = resources.allocateArray([http, refreshKit] + echo + [lws_protocols()])

        // MIME types lws does not know (it answers 415 for them otherwise).
        var mimeTypes: UnsafeMutablePointer<lws_protocol_vhost_options>?
        for (suffix, type) in Self.extraMIMETypes.reversed() {
            var option = lws_protocol_vhost_options()
            option.next = UnsafePointer(mimeTypes)
            option.name = resources.string(suffix)
            option.value = resources.string(type)
            mimeTypes = resources.allocate(option)
        }

        var mount = lws_http_mount()
        mount.mountpoint = resources.string("/")
        mount.mountpoint_len = 1
        mount.origin = resources.string(webRoot)
        mount.def = resources.string("index.html")
        mount.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
        mount.extra_mimetypes = UnsafePointer(mimeTypes)
        if let controlsRoot {
            // The user's control modules (docs/CONTROLS.md): lws picks the longest matching mount point.
            var controls = lws_http_mount()
            controls.mountpoint = resources.string("/controls")
            controls.mountpoint_len = UInt8("/controls".utf8.count)
            controls.origin = resources.string(controlsRoot)
            controls.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
            mount.mount_next = UnsafePointer(resources.allocate(controls))
        }
        // `POST /feed/items` (FeedPosts.swift): lws hands its body to the "http" protocol's callback.
        let feedItems = callbackMount(path: FeedPostEndpoint.path, next: resources.allocate(mount))
        // `GET /feed/image` (Images/ImageRequests.swift): answered by the "http" protocol's callback when ready.
        let mounts = callbackMount(path: ImageEndpoint.path, next: feedItems)

        // Zero: lws's own ping/hang-up (its "validity" timers) stays off; see Keepalive.swift for why and
        // for what replaces it. lws would otherwise apply its default policy.
        let retryPolicy = resources.allocate(lws_retry_bo_t())

        var info = lws_context_creation_info()
        info.port = Int32(configuration.port)
        info.protocols = UnsafePointer(protocols)
        info.mounts = UnsafePointer(mounts)
        info.retry_and_idle_policy = UnsafePointer(retryPolicy)
        info.pt_serv_buf_size = 16 * 1024
        info.user = owner
        if !echo.isEmpty { info.pvo = UnsafePointer(EchoProtocol.defaultOption(resources)) }
        info.headers = SecurityHeaders.list(resources)  // lws's best-practice set, images from this origin only
        info.options = rk_opt_validate_utf8() | rk_opt_fail_upon_unable_to_bind()
        if let tls = configuration.tls {
            // https and wss on the one port; a request that is not TLS is answered by the gate, which redirects it
            // (docs/HTTPS.md, "Plain http on the TLS port")
            info.options |= rk_opt_tls_global_init() | rk_opt_http_on_tls_port()
            info.ssl_cert_filepath = resources.string(tls.certificate)
            info.ssl_private_key_filepath = resources.string(tls.privateKey)
            // HTTP/1.1 only: the gate writes its answers (a refusal, /metrics, /ca, a QR code) as one HTTP/1 buffer
            // of headers and body, which an HTTP/2 stream cannot carry (docs/HTTPS.md, "HTTP/1.1 only")
            info.alpn = resources.string("http/1.1")
        }
        switch Self.classify(host: configuration.host) {
        case .anyIPv6:
            info.iface = nil  // every interface, dual-stack
        case .ipv4(let address):
            info.iface = resources.string(address)
            info.options |= rk_opt_disable_ipv6()  // an AF_INET listener, no v4-mapped detour
        case .other(let name):
            info.iface = resources.string(name)
        }

        var foreignLoop: UnsafeMutableRawPointer?
        if configuration.eventLoop == .libuv {
            // Our own loop, which lws joins: `run()` can then return after each turn (lws's own uv loop
            // would keep lws_service inside uv_run until the context dies).
            guard let loop = rk_uv_loop_create() else { throw .eventLoopFailed }
            uvLoop = loop
            foreignLoop = UnsafeMutableRawPointer(loop)
            info.options |= rk_opt_libuv()
        }
        let joinsForeignLoop = foreignLoop != nil
        // lws's table a little below the process's limit, the soft limit raised to the hard one (Descriptors.swift)
        let descriptors = Descriptors.current()
        let make = { () -> OpaquePointer? in
            withUnsafeMutablePointer(to: &foreignLoop) { slot in
                if joinsForeignLoop { info.foreign_loops = slot }
                return lws_create_context(&info)
            }
        }
        let created = descriptors.map { $0.whileMakingContext(make) } ?? make()
        if let descriptors {
            logger.debug(
                "descriptors", metadata: ["limit": "\(descriptors.limit)", "connections": "\(descriptors.table)"])
        }
        guard let context = created else {
            uvLoop = nil  // not run again, for the reason given below
            throw .listenFailed(host: configuration.host, port: configuration.port)
        }
        // On a foreign loop lws 4.1.6 returns a context even when the listener could not be bound
        // (FAIL_UPON_UNABLE_TO_BIND is only honoured on its own loop): no listening vhost = no server.
        guard let vhost = lws_get_vhost_by_name(context, "default"), lws_get_vhost_listen_port(vhost) > 0 else {
            // Destroying that half-made context unloads lws's uv plugin while handles it opened on our
            // loop still wait for their close callbacks (in the plugin): running the loop again would
            // jump into unmapped code. The loop (a few hundred bytes and an epoll descriptor) is left.
            lws_context_destroy(context)
            uvLoop = nil
            throw .listenFailed(host: configuration.host, port: configuration.port)
        }
        self.context = context
        port = Int(lws_get_vhost_listen_port(vhost))
        tick.pointee.owner = owner
        shutdownWake.pointee.owner = owner
        keepaliveSweep.pointee.owner = owner
        if let uvLoop {
            uv_check_init(uvLoop, turnEnd)
            turnEnd.pointee.data = owner
            uv_check_start(turnEnd, turnEndCallback)
            turnEndStarted = true
        }
        if let publicPort = configuration.hardening.publicPorts.first {
            // Pages come through a proxy on this machine (`refreshkit link`): share its address, as the
            // network sees it.
            host.shareBase = Self.shareBase(
                host: "0.0.0.0", port: publicPort, tls: configuration.tls != nil || configuration.hardening.publicTLS)
        } else {
            host.shareBase = Self.shareBase(host: configuration.host, port: port, tls: configuration.tls != nil)
        }
        gatekeeper.start(
            webRoot: webRoot, port: port, host: configuration.host, controlsRoot: controlsRoot,
            tls: configuration.tls)
        gatekeeper.metricsText = { [unowned self] in metricsPage() }
        mailbox.open(waking: ContextWaker(context: context))
        driver.start { [mailbox] in mailbox.post($0) }
        images?.start(waking: context)
        logger.debug(
            "libwebsockets context created",
            metadata: ["webRoot": "\(webRoot)", "port": "\(port)", "host": "\(configuration.host)"])
    }

    // MARK: - Helpers

    /// A mount whose requests lws hands to the "http" protocol's callback (Gatekeeper.swift), before `next`.
    private func callbackMount(path: String, next: UnsafeMutablePointer<lws_http_mount>)
        -> UnsafeMutablePointer<lws_http_mount>
    {
        var mount = lws_http_mount()
        mount.mountpoint = resources.string(path)
        mount.mountpoint_len = UInt8(path.utf8.count)
        mount.origin = resources.string("http")
        mount.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
        mount.mount_next = UnsafePointer(next)
        return resources.allocate(mount)
    }

    /// `--controls`' folder made absolute (symlinks resolved); nil without it; thrown when it is not a folder.
    static func controlsFolder(_ path: String?) throws(ServerError) -> String? {
        guard let path else { return nil }
        guard let resolved = realpath(path, nil) else {
            throw .invalidConfiguration("controls folder '\(path)' does not exist or is not a directory")
        }
        defer { free(resolved) }
        var status = stat()
        let folder = String(cString: resolved)
        guard stat(folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw .invalidConfiguration("controls folder '\(path)' does not exist or is not a directory")
        }
        return folder
    }

    static let subprotocol = "refreshkit.v1"

    /// `http://HOST:PORT` (`https://` with `tls`) for share links: a wildcard address is shown as the first LAN
    /// address (the one a phone can open), else loopback.
    static func shareBase(host: String, port: Int, tls: Bool = false) -> String {
        let shown: String
        switch host {
        case "0.0.0.0", "::", "[::]":
            shown = NetworkInterfaces.lanIPv4Addresses().first ?? (host == "0.0.0.0" ? "127.0.0.1" : "[::1]")
        default:
            shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
        return "\(tls ? "https" : "http")://\(shown):\(port)"
    }

    static let extraMIMETypes: [(String, String)] = [
        (".mjs", "text/javascript"),
        (".wasm", "application/wasm"),
        (".webmanifest", "application/manifest+json"),
        (".map", "application/json"),
    ]

    enum HostKind: Equatable {
        case anyIPv6
        case ipv4(String)
        case other(String)
    }

    static func classify(host: String) -> HostKind {
        if host == "::" || host == "[::]" { return .anyIPv6 }
        var address = in_addr()
        if inet_pton(AF_INET, host, &address) == 1 { return .ipv4(host) }
        return .other(host)
    }
}
