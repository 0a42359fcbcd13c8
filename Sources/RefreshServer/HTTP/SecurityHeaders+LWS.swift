import CLibWebSockets
import RefreshAccess

// The front door's security headers (``SecurityHeaders``) given to lws as the vhost's canned headers, which it adds
// to every status line it writes.
extension SecurityHeaders {
    /// The list as lws takes it (`lws_context_creation_info.headers`: names lowercase with their colon), allocated
    /// in `resources`.
    static func list(_ resources: CResources) -> UnsafePointer<lws_protocol_vhost_options>? {
        var next: UnsafeMutablePointer<lws_protocol_vhost_options>?
        for (name, value) in all.reversed() {
            var option = lws_protocol_vhost_options()
            option.next = UnsafePointer(next)
            option.name = resources.string(name + ":")
            option.value = resources.string(value)
            next = resources.allocate(option)
        }
        return UnsafePointer(next)
    }
}
