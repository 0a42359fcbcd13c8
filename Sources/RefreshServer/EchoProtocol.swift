import CLibWebSockets
import DequeModule

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `autobahn-echo`: a test-only subprotocol that echoes every message, text or binary, as it came
/// (`refreshkit serve --echo-protocol`). It is made the vhost's default protocol, so the Autobahn
/// fuzzing client, which asks for no subprotocol, lands here; `refreshkit.v1` is unchanged beside it.
/// scripts/autobahn.sh runs the conformance cases against it (docs/AUTOBAHN.md). The product protocol is
/// not used for this because it answers JSON, not echoes; both share lws's framing, UTF-8 validation,
/// close handshake and ping handling, which is what the cases test.
enum EchoProtocol {
    static let name = "autobahn-echo"
    /// Autobahn's largest messages (cases 9.*) are 16 MiB; anything larger closes with 1009.
    static let maxMessageBytes = 32 << 20

    /// The `lws_protocols` entry.
    static func entry(_ resources: CResources) -> lws_protocols {
        var entry = lws_protocols()
        entry.name = resources.string(name)
        entry.callback = echoProtocolCallback
        entry.per_session_data_size = MemoryLayout<UnsafeMutableRawPointer?>.size
        entry.rx_buffer_size = 65536
        entry.tx_packet_size = 65536
        return entry
    }

    /// The per-vhost option that makes the echo protocol the default (`"default": "1"`).
    static func defaultOption(_ resources: CResources) -> UnsafeMutablePointer<lws_protocol_vhost_options> {
        var isDefault = lws_protocol_vhost_options()
        isDefault.name = resources.string("default")
        isDefault.value = resources.string("1")
        var perProtocol = lws_protocol_vhost_options()
        perProtocol.name = resources.string(name)
        perProtocol.value = resources.string("")
        perProtocol.options = UnsafePointer(resources.allocate(isDefault))
        return resources.allocate(perProtocol)
    }
}

/// One echo connection: the message being received and the messages waiting to go back.
private final class EchoConnection {
    var message: [UInt8] = []
    var inMessage = false
    var binary = false
    var outbox = Deque<(binary: Bool, bytes: [UInt8])>()
    var tooLarge = false
}

private func echoProtocolCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let user else { return 0 }
    switch reason {
    case LWS_CALLBACK_ESTABLISHED:
        user.storeBytes(of: Unmanaged.passRetained(EchoConnection()).toOpaque(), as: UnsafeMutableRawPointer?.self)
    case LWS_CALLBACK_RECEIVE:
        guard let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
        let connection = Unmanaged<EchoConnection>.fromOpaque(raw).takeUnretainedValue()
        if connection.tooLarge { return 0 }
        if !connection.inMessage {
            connection.inMessage = true
            connection.binary = lws_frame_is_binary(wsi) != 0
            connection.message.removeAll(keepingCapacity: false)
        }
        if connection.message.count + length > EchoProtocol.maxMessageBytes {
            connection.tooLarge = true
            var text = Array("message too large".utf8)
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, &text, text.count)
            lws_callback_on_writable(wsi)
            return 0
        }
        if let input, length > 0 {
            connection.message.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        if lws_remaining_packet_payload(wsi) == 0 && lws_is_final_fragment(wsi) != 0 {
            connection.inMessage = false
            connection.outbox.append((connection.binary, connection.message))
            connection.message = []
            lws_callback_on_writable(wsi)
        }
    case LWS_CALLBACK_SERVER_WRITEABLE:
        guard let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
        let connection = Unmanaged<EchoConnection>.fromOpaque(raw).takeUnretainedValue()
        if connection.tooLarge { return -1 }
        guard let next = connection.outbox.popFirst() else { return 0 }
        let pre = Int(RK_LWS_PRE)
        var buffer = [UInt8](repeating: 0, count: pre + next.bytes.count)
        buffer.replaceSubrange(pre..., with: next.bytes)
        let written = buffer.withUnsafeMutableBytes { bytes in
            lws_write(
                wsi, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + pre, next.bytes.count,
                next.binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT)
        }
        if written < 0 { return -1 }
        if !connection.outbox.isEmpty { lws_callback_on_writable(wsi) }
    case LWS_CALLBACK_CLOSED:
        guard let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
        user.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        Unmanaged<EchoConnection>.fromOpaque(raw).release()
    default:
        break
    }
    return 0
}
