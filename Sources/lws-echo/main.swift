import CLibWebSockets
import Foundation

// lws-echo: the transport's floor. The same libwebsockets, the same context settings and subprotocol name as
// `refreshkit serve`, but each complete text message is written straight back: no decoding, no session, no
// encoding. `refreshkit-load --mode echo` against it measures what the server costs over bare lws.
//
//   lws-echo [--host 127.0.0.1] [--port 0] [--protocol refreshkit.v1] [--max-seconds 900] [--event-loop uv|poll]
//
// Prints `listening on http://HOST:PORT` when ready; SIGTERM/SIGINT end it, and so does --max-seconds.

/// One connection's messages waiting to go back, oldest first (one `lws_write` per WRITEABLE).
final class EchoConnection {
    var outbox: [[UInt8]] = []
    var head = 0
    /// The message being received, when it spans several RECEIVE callbacks.
    var partial: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: Int(RK_LWS_PRE) + 4096)
}

final class EchoServer {
    var context: OpaquePointer?
    var connections = 0
    static let maxQueued = 4096
}

private func echoCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi else { return 0 }
    switch reason {
    case LWS_CALLBACK_ESTABLISHED:
        user?.storeBytes(of: Unmanaged.passRetained(EchoConnection()).toOpaque(), as: UnsafeMutableRawPointer?.self)
    case LWS_CALLBACK_CLOSED:
        if let raw = user?.load(as: UnsafeMutableRawPointer?.self) {
            user?.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
            Unmanaged<EchoConnection>.fromOpaque(raw).release()
        }
    case LWS_CALLBACK_RECEIVE:
        guard let raw = user?.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
        let connection = Unmanaged<EchoConnection>.fromOpaque(raw).takeUnretainedValue()
        if let input, length > 0 {
            connection.partial.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        guard lws_remaining_packet_payload(wsi) == 0, lws_is_final_fragment(wsi) != 0 else { return 0 }
        if connection.outbox.count - connection.head >= EchoServer.maxQueued { return -1 }  // not reading: drop it
        connection.outbox.append(connection.partial)
        connection.partial.removeAll(keepingCapacity: true)
        // Straight back when the socket takes it, as `refreshkit serve` writes its frames (writeFrameNow):
        // the floor uses the same shortcut, so the ratio compares like with like.
        if connection.outbox.count - connection.head == 1 && lws_partial_buffered(wsi) == 0 {
            return writeNext(connection, wsi)
        }
        lws_callback_on_writable(wsi)
    case LWS_CALLBACK_SERVER_WRITEABLE:
        guard let raw = user?.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
        return writeNext(Unmanaged<EchoConnection>.fromOpaque(raw).takeUnretainedValue(), wsi)
    default:
        break
    }
    return 0
}

/// Writes the oldest queued message; asks for WRITEABLE again when more are waiting.
private func writeNext(_ connection: EchoConnection, _ wsi: OpaquePointer) -> Int32 {
    guard connection.head < connection.outbox.count else { return 0 }
    let message = connection.outbox[connection.head]
    connection.head += 1
    if connection.head == connection.outbox.count {
        connection.outbox.removeAll(keepingCapacity: true)
        connection.head = 0
    }
    let pre = Int(RK_LWS_PRE)
    if connection.buffer.count < pre + message.count {
        connection.buffer = [UInt8](repeating: 0, count: pre + message.count)
    }
    let written = connection.buffer.withUnsafeMutableBytes { raw in
        let start = raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + pre
        message.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: message.count) }
        return lws_write(wsi, start, message.count, LWS_WRITE_TEXT)
    }
    if written < 0 { return -1 }
    if connection.head < connection.outbox.count { lws_callback_on_writable(wsi) }
    return 0
}

var host = "127.0.0.1"
var port = 0
var subprotocol = "refreshkit.v1"
var maxSeconds = 900
var eventLoop = "uv"
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
    let name = arguments.removeFirst()
    guard let value = arguments.first else {
        FileHandle.standardError.write(Data("lws-echo: \(name) needs a value\n".utf8))
        exit(2)
    }
    arguments.removeFirst()
    switch name {
    case "--host": host = value
    case "--port": port = Int(value) ?? -1
    case "--protocol": subprotocol = value
    case "--max-seconds": maxSeconds = Int(value) ?? 900
    case "--event-loop" where value == "uv" || value == "poll": eventLoop = value
    default:
        FileHandle.standardError.write(Data("lws-echo: unknown argument \(name)\n".utf8))
        exit(2)
    }
}
guard (0...65535).contains(port) else {
    FileHandle.standardError.write(Data("lws-echo: --port must be 0…65535\n".utf8))
    exit(2)
}
signal(SIGPIPE, SIG_IGN)
alarm(UInt32(max(1, maxSeconds)))

// Everything lws points to lives until the process ends.
var http = lws_protocols()
http.name = UnsafePointer(strdup("http"))
http.callback = lws_callback_http_dummy
var echo = lws_protocols()
echo.name = UnsafePointer(strdup(subprotocol))
echo.callback = echoCallback
echo.per_session_data_size = MemoryLayout<UnsafeMutableRawPointer?>.size
echo.rx_buffer_size = 4096
echo.tx_packet_size = 64 * 1024
let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 3)
protocols.initialize(from: [http, echo, lws_protocols()], count: 3)

let retry = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
retry.initialize(to: lws_retry_bo_t())
retry.pointee.secs_since_valid_ping = 10
retry.pointee.secs_since_valid_hangup = 20

var info = lws_context_creation_info()
info.port = Int32(port)
info.iface = UnsafePointer(strdup(host))
info.protocols = UnsafePointer(protocols)
info.retry_and_idle_policy = UnsafePointer(retry)
info.pt_serv_buf_size = 16 * 1024
info.gid = -1
info.uid = -1
info.options = rk_opt_validate_utf8() | rk_opt_fail_upon_unable_to_bind() | rk_opt_disable_ipv6()
// The same event loop as the server's (ServiceLoop): libuv's epoll by default, lws's poll() on request.
let loop: UnsafeMutablePointer<uv_loop_t>? = eventLoop == "uv" ? rk_uv_loop_create() : nil
let foreignLoops = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
foreignLoops.initialize(to: loop.map { UnsafeMutableRawPointer($0) })
if loop != nil {
    info.options |= rk_opt_libuv()
    info.foreign_loops = foreignLoops
}
lws_set_log_level(LLL_ERR, nil)
guard let context = lws_create_context(&info) else {
    FileHandle.standardError.write(Data("lws-echo: could not listen on \(host):\(port)\n".utf8))
    exit(1)
}
let bound = lws_get_vhost_by_name(context, "default").map { Int(lws_get_vhost_listen_port($0)) } ?? port
FileHandle.standardOutput.write(Data("listening on http://\(host):\(bound)\n".utf8))
if let loop {
    uv_run(loop, UV_RUN_DEFAULT)
} else {
    while lws_service(context, 0) >= 0 {}
}
rk_uv_destroy(context, loop)
