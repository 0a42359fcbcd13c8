import CCurl
import Foundation
import RefreshAccess
import RefreshKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fetches one http or https address with Debian's libcurl, within a time limit and a size limit, connecting only
/// where a ``FetchPolicy`` allows (docs/FEEDS.md, "What is fetched, and what is refused").
///
/// Every connection curl opens (the first request's, each redirect's, each address a name resolves to) is checked on
/// the address it is about to connect to (`CURLOPT_OPENSOCKETFUNCTION`): a refused one is never connected to, and the
/// fetch fails `unavailable` saying which address was refused and why. Redirects are followed (at most
/// ``maxRedirects``, http and https only, as the first request); proxies named in the environment (`http_proxy`,
/// `https_proxy`, `all_proxy`) are not used, so the policy judges the address of the host itself. A compressed
/// answer is decoded, and the limit applies to the decoded bytes. Blocking: it runs on a worker's thread.
public enum CurlFetcher {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// The most redirects one fetch follows.
    public static var maxRedirects: Int { 5 }

    /// What a fetch got: the body and the answer's `Content-Type`, if it said one.
    public struct Fetched: Sendable {
        public var body: Data
        public var contentType: String?
    }

    /// The body at `url`. - Throws: `FeedError/timedOut(limitMs:)`, `FeedError/oversized(what:limit:)`
    /// past `maxBytes`, `FeedError/unavailable(_:)` with curl's reason, the address `policy` refused or the HTTP
    /// status.
    public static func fetch(
        _ url: String, timeoutMs: Int, maxBytes: Int, policy: FetchPolicy
    ) throws(FeedError) -> Data {
        try get(url, timeoutMs: timeoutMs, maxBytes: maxBytes, policy: policy).body
    }

    /// The body and `Content-Type` at `url` (the feed's images, Sources/RefreshServer/Images); throws as
    /// ``fetch(_:timeoutMs:maxBytes:policy:)``.
    public static func get(
        _ url: String, timeoutMs: Int, maxBytes: Int, policy: FetchPolicy
    ) throws(FeedError) -> Fetched {
        let answer = try exchange(url, timeoutMs: timeoutMs, maxBytes: maxBytes, policy: policy)
        guard (200..<300).contains(answer.status) else { throw .unavailable("\(url) answered HTTP \(answer.status)") }
        return Fetched(body: answer.body, contentType: answer.contentType)
    }

    /// The answer at `url`, whatever its status, asked conditionally when `ifNoneMatch` or `ifModifiedSince` is
    /// given (a 304 then has no body). - Throws: as ``fetch(_:timeoutMs:maxBytes:policy:)`` for a transfer that
    /// failed.
    public static func exchange(
        _ url: String, timeoutMs: Int, maxBytes: Int, policy: FetchPolicy, ifNoneMatch: String? = nil,
        ifModifiedSince: String? = nil
    ) throws(FeedError) -> HTTPAnswer {
        guard initialized, let curl = curl_easy_init() else { throw .unavailable("libcurl could not start") }
        var headers: UnsafeMutablePointer<curl_slist>?
        defer {
            curl_slist_free_all(headers)
            curl_easy_cleanup(curl)
        }
        if let ifNoneMatch { headers = curl_slist_append(headers, "If-None-Match: \(ifNoneMatch)") }
        if let ifModifiedSince { headers = curl_slist_append(headers, "If-Modified-Since: \(ifModifiedSince)") }
        if let headers { _ = refreshkit_curl_set_pointer(curl, CURLOPT_HTTPHEADER, headers) }
        let body = Body(limit: maxBytes)
        let context = Unmanaged.passUnretained(body).toOpaque()
        let connections = Connections(policy: policy)
        _ = refreshkit_curl_set_string(curl, CURLOPT_URL, url)
        _ = refreshkit_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = refreshkit_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = refreshkit_curl_set_string(curl, CURLOPT_PROXY, "")  // not the environment's: the policy judges the host
        _ = refreshkit_curl_set_string(curl, CURLOPT_USERAGENT, "refreshkit")
        _ = refreshkit_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, "")
        _ = refreshkit_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = refreshkit_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        _ = refreshkit_curl_set_long(curl, CURLOPT_MAXREDIRS, maxRedirects)
        _ = refreshkit_curl_set_long(curl, CURLOPT_TIMEOUT_MS, timeoutMs)
        _ = refreshkit_curl_set_offset(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBytes))
        _ = refreshkit_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
        _ = refreshkit_curl_set_write_function(curl) { data, size, count, context in
            guard let data, let context else { return 0 }
            let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard body.data.count + length <= body.limit else {
                body.exceeded = true
                return 0
            }
            body.data.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
            return length
        }
        guard
            refreshkit_curl_set_opensocket(curl, Connections.open, Unmanaged.passUnretained(connections).toOpaque())
                == CURLE_OK
        else { throw .unavailable("libcurl could not check the addresses it connects to") }
        let code = withExtendedLifetime((body, connections)) { curl_easy_perform(curl) }
        if body.exceeded || code == CURLE_FILESIZE_EXCEEDED { throw .oversized(what: "body", limit: maxBytes) }
        if code == CURLE_OPERATION_TIMEDOUT { throw .timedOut(limitMs: timeoutMs) }
        guard code == CURLE_OK else {
            if !connections.refused.isEmpty {
                throw .unavailable("\(url): \(connections.refusal)")
            }
            throw .unavailable("\(url): \(String(cString: curl_easy_strerror(code)))")
        }
        var status = 0
        _ = refreshkit_curl_response_code(curl, &status)
        var type: UnsafePointer<CChar>?
        _ = refreshkit_curl_content_type(curl, &type)
        var retryAfter: curl_off_t = 0
        _ = refreshkit_curl_retry_after(curl, &retryAfter)
        return HTTPAnswer(
            status: status, body: body.data, contentType: type.map { String(cString: $0) },
            etag: header("ETag", of: curl), lastModified: header("Last-Modified", of: curl),
            cacheControl: header("Cache-Control", of: curl), retryAfterSeconds: retryAfter > 0 ? Int(retryAfter) : nil)
    }

    /// The last answer's header `name` (after redirects: the final answer's), or nil.
    private static func header(_ name: String, of curl: UnsafeMutableRawPointer) -> String? {
        var found: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(curl, name, 0, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK, let found else {
            return nil
        }
        return String(cString: found.pointee.value)
    }

    /// The bytes received so far; touched only by the callback, on the calling thread.
    private final class Body {
        var data = Data()
        let limit: Int
        var exceeded = false
        init(limit: Int) { self.limit = limit }
    }

    /// The connections of one fetch, each judged by its policy before it is opened; touched only by curl's
    /// socket callback, on the calling thread.
    private final class Connections {
        let policy: FetchPolicy
        /// The addresses refused, with their ports and scopes, in the order curl tried them.
        var refused: [(address: IPAddress, port: Int, scope: IPAddress.Scope)] = []
        init(policy: FetchPolicy) { self.policy = policy }

        /// Why the fetch failed, for the operator's log: the addresses refused and what would allow them.
        var refusal: String {
            let list = refused.map { "\($0.address) port \($0.port) (\($0.scope.rawValue))" }
            return "refused to connect to \(list.joined(separator: ", ")): only addresses on the internet and the "
                + "feed's own host and port are fetched (serve --feed-allow-private allows every address)"
        }

        /// curl's `CURLOPT_OPENSOCKETFUNCTION`: a socket for an allowed address, `CURL_SOCKET_BAD` (nothing sent,
        /// curl tries the next address or fails the transfer) for any other.
        static let open: refreshkit_curl_opensocket_callback = { context, _, address in
            guard let context, let address else { return refreshkit_curl_socket_bad() }
            let connections = Unmanaged<Connections>.fromOpaque(context).takeUnretainedValue()
            // `addr` is as long as `addrlen` says (a sockaddr_in6 is longer than the struct's `sockaddr`)
            let offset = MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr) ?? 16
            guard let (ip, port) = FetchPolicy.endpoint(UnsafeRawPointer(address).advanced(by: offset)) else {
                return refreshkit_curl_socket_bad()  // not IPv4 or IPv6
            }
            if case .refused(let scope) = connections.policy.decide(ip, port: port) {
                connections.refused.append((ip, port, scope))
                return refreshkit_curl_socket_bad()
            }
            let socket = socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
            if socket >= 0 { _ = fcntl(socket, F_SETFD, FD_CLOEXEC) }
            return socket
        }
    }
}
