/// The headers every HTTP answer of every transport carries (docs/HARDENING.md, "HTTP"): the set of lws's
/// "security best practices" (`LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE`, after Mozilla
/// Observatory) with one change: images from this origin only (`img-src 'self'`, where lws also allows `data:`):
/// the feed's images come through `GET /feed/image` (docs/FEEDS.md, "Images"), and nothing the page draws is a
/// `data:` address.
public enum SecurityHeaders {
    public static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self'; script-src 'self'; font-src 'self'; style-src 'self'; "
        + "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self';"

    /// Name (lowercase) and value, in order.
    public static let all: [(name: String, value: String)] = [
        ("content-security-policy", contentSecurityPolicy),
        ("x-content-type-options", "nosniff"),
        ("x-xss-protection", "1; mode=block"),
        ("x-frame-options", "deny"),
        ("referrer-policy", "no-referrer"),
    ]
}
