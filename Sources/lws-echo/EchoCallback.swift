import CLibWebSockets
import Foundation

// The echo's lws callback: each complete text message is written straight back (EchoCommand runs it).

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

func echoCallback(
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
