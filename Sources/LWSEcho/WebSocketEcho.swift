import CLibWebSockets

/// A libwebsockets protocol that sends every message back as it came, used twice: `refreshkit serve
/// --echo-protocol` adds it as `autobahn-echo` for the Autobahn cases (docs/AUTOBAHN.md), and `lws-echo` serves
/// it as the transport's floor that `make bench` measures the server against (docs/PERFORMANCE.md).
///
/// One behaviour for both:
/// - A message is echoed whole, once its last fragment's last byte arrived, with its own opcode (text or binary);
///   lws has already checked text for UTF-8 (`LWS_SERVER_OPTION_VALIDATE_UTF8`) and answered pings and closes.
/// - Messages wait in order in a `Deque` and go on WRITEABLE; with ``Writes/straightBack`` a message goes out from
///   the receive callback itself when nothing is queued and lws holds no unsent bytes (see ``Writes``).
/// - A message over ``maxMessageBytes`` closes with 1009; ``maxQueuedMessages`` echoes waiting (a peer that
///   sends and does not read) closes with 1008. Each close is issued from the connection's timer after the next
///   WRITEABLE, as the server's own protocol closes (a -1 from WRITEABLE loses the close frame under libuv).
public enum WebSocketEcho {
    /// When an echo is written: the one thing the two uses choose differently.
    public enum Writes: Sendable {
        /// From the receive callback when nothing waits, as `refreshkit serve` writes its frames
        /// (`writeFrameNow`): `lws-echo`, so that the floor and the server are measured alike.
        case straightBack
        /// Always on WRITEABLE, after whatever lws owes the peer first: Autobahn's endpoint. Written from the
        /// receive callback, an echo overtakes the pong lws owes for a ping that arrived between the message's
        /// fragments (Autobahn 5.6, 5.8, 5.19, 5.20, 7.1.4 and 7.1.5 fail so).
        case onWriteable
    }

    /// Autobahn's largest messages (cases 9.*) are 16 MiB.
    public static let maxMessageBytes = 32 << 20
    /// Far more than a peer that reads ever has waiting (the bench's load has one message in flight per
    /// session at a time).
    public static let maxQueuedMessages = 4096

    /// The `lws_protocols` entry. `name` must stay valid while the context lives.
    /// - Parameter receiveBufferSize: lws's per-connection receive buffer (`rx_buffer_size`): what one
    ///   RECEIVE delivers at most; larger frames arrive in several.
    public static func entry(name: UnsafePointer<CChar>, receiveBufferSize: Int, writes: Writes) -> lws_protocols {
        var entry = lws_protocols()
        entry.name = name
        switch writes {
        case .straightBack: entry.callback = { echoCallback($0, $1, $2, $3, $4, writes: .straightBack) }
        case .onWriteable: entry.callback = { echoCallback($0, $1, $2, $3, $4, writes: .onWriteable) }
        }
        entry.per_session_data_size = MemoryLayout<UnsafeMutableRawPointer?>.size
        entry.rx_buffer_size = receiveBufferSize
        entry.tx_packet_size = 64 * 1024
        return entry
    }
}
