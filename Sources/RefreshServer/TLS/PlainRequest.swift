/// What a plain `http://` request on the TLS port is answered (docs/HTTPS.md, "Plain http on the TLS port"): a
/// permanent redirect (308) to the same path and query over `https://`, on the host the client asked for, so that a
/// share link typed or scanned as `http://` still opens its session.
enum PlainRequest {
    /// The paths answered over plain http too: the CA a phone installs before it trusts the server.
    static let answeredPlain: Set<String> = [AuthorityPage.pagePath, AuthorityPage.certificatePath]

    /// The `Location` for a request of `path` (as lws decoded it) with the query's `name=value` fragments (decoded
    /// too), sent with the `Host` header `host`; `fallbackHost` when that header is missing or not a plain host name,
    /// address and port (nothing else is repeated back to the client).
    static func redirect(path: String, query: [String], host: String?, fallbackHost: String) -> String {
        let authority = host.flatMap { isAuthority($0) ? $0 : nil } ?? fallbackHost
        var location = "https://" + authority + (path.hasPrefix("/") ? encode(path, keeping: "/") : "/")
        if !query.isEmpty {
            location +=
                "?"
                + query.map { fragment in
                    guard let equals = fragment.firstIndex(of: "=") else { return encode(fragment) }
                    return encode(String(fragment[..<equals])) + "="
                        + encode(String(fragment[fragment.index(after: equals)...]))
                }.joined(separator: "&")
        }
        return location
    }

    /// A host name, an IPv4 address or a bracketed IPv6 address, with an optional port: letters, digits and `.-:[]`,
    /// at most 255 bytes.
    static func isAuthority(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"),
                    UInt8(ascii: "["), UInt8(ascii: "]"):
                    true
                default: false
                }
            }
    }

    /// Percent-encodes all but RFC 3986's unreserved characters and `keeping`.
    static func encode(_ text: String, keeping: Character? = nil) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(character)
            default:
                if character == keeping {
                    encoded.append(character)
                } else {
                    let digits = Array("0123456789ABCDEF")
                    encoded += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0f)])
                }
            }
        }
        return encoded
    }
}
