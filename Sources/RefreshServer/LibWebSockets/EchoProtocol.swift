import CLibWebSockets
import LWSEcho

/// `autobahn-echo`: a test-only subprotocol that echoes every message, text or binary, as it came
/// (`refreshkit serve --echo-protocol`). It is made the vhost's default protocol, so the Autobahn
/// fuzzing client, which asks for no subprotocol, lands here; `refreshkit.v1` is unchanged beside it.
/// scripts/autobahn.sh runs the conformance cases against it (docs/AUTOBAHN.md). The product protocol is
/// not used for this because it answers JSON, not echoes; both share lws's framing, UTF-8 validation,
/// close handshake and ping handling, which is what the cases test.
enum EchoProtocol {
    static let name = "autobahn-echo"

    /// The `lws_protocols` entry: the echo shared with `lws-echo` (``WebSocketEcho``: whole messages, text or
    /// binary as they came, at most 32 MiB each, closing with 1009 beyond), with a 64 KiB receive buffer, and
    /// every echo written on WRITEABLE, behind the pongs and closes lws owes first.
    static func entry(_ resources: CResources) -> lws_protocols {
        WebSocketEcho.entry(name: resources.string(name), receiveBufferSize: 65536, writes: .onWriteable)
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
