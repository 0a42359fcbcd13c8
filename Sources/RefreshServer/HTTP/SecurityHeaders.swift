import CLibWebSockets

/// The headers every HTTP answer carries (docs/HARDENING.md): lws's "security best practices" set
/// (`LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE`, after Mozilla Observatory) with one change:
/// images from this origin only (`img-src 'self'`, where lws also allows `data:`): the feed's images come
/// through `GET /feed/image` (docs/FEEDS.md, "Images"), and nothing the page draws is a `data:` address.
/// Given to lws as the vhost's canned headers, which it adds to every status line it writes.
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self'; script-src 'self'; font-src 'self'; style-src 'self'; "
        + "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self';"

    /// Name (lowercase, with its colon, as lws writes it) and value, in order.
    static let all: [(String, String)] = [
        ("content-security-policy:", contentSecurityPolicy),
        ("x-content-type-options:", "nosniff"),
        ("x-xss-protection:", "1; mode=block"),
        ("x-frame-options:", "deny"),
        ("referrer-policy:", "no-referrer"),
    ]

    /// The list as lws takes it (`lws_context_creation_info.headers`), allocated in `resources`.
    static func list(_ resources: CResources) -> UnsafePointer<lws_protocol_vhost_options>? {
        var next: UnsafeMutablePointer<lws_protocol_vhost_options>?
        for (name, value) in all.reversed() {
            var option = lws_protocol_vhost_options()
            option.next = UnsafePointer(next)
            option.name = resources.string(name)
            option.value = resources.string(value)
            next = resources.allocate(option)
        }
        return UnsafePointer(next)
    }
}
