import CCurl
import Foundation
import RefreshKit

/// Fetches one http or https address with Debian's libcurl, within a time limit and a size limit.
///
/// Redirects are followed (at most 5, http and https only); a compressed answer is decoded, and the limit
/// applies to the decoded bytes. Blocking: it runs on the feed worker's thread.
public enum CurlFetcher {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// What a fetch got: the body and the answer's `Content-Type`, if it said one.
    public struct Fetched: Sendable {
        public var body: Data
        public var contentType: String?
    }

    /// The body at `url`. - Throws: `FeedError/timedOut(limitMs:)`, `FeedError/oversized(what:limit:)`
    /// past `maxBytes`, `FeedError/unavailable(_:)` with curl's reason or the HTTP status.
    public static func fetch(_ url: String, timeoutMs: Int, maxBytes: Int) throws(FeedError) -> Data {
        try get(url, timeoutMs: timeoutMs, maxBytes: maxBytes).body
    }

    /// The body and `Content-Type` at `url` (the feed's images, Sources/RefreshServer/Images); throws as
    /// ``fetch(_:timeoutMs:maxBytes:)``.
    public static func get(_ url: String, timeoutMs: Int, maxBytes: Int) throws(FeedError) -> Fetched {
        let answer = try exchange(url, timeoutMs: timeoutMs, maxBytes: maxBytes)
        guard (200..<300).contains(answer.status) else { throw .unavailable("\(url) answered HTTP \(answer.status)") }
        return Fetched(body: answer.body, contentType: answer.contentType)
    }

    /// The answer at `url`, whatever its status, asked conditionally when `ifNoneMatch` or `ifModifiedSince` is
    /// given (a 304 then has no body). - Throws: as ``fetch(_:timeoutMs:maxBytes:)`` for a transfer that failed.
    public static func exchange(
        _ url: String, timeoutMs: Int, maxBytes: Int, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil
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
        _ = refreshkit_curl_set_string(curl, CURLOPT_URL, url)
        _ = refreshkit_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = refreshkit_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = refreshkit_curl_set_string(curl, CURLOPT_USERAGENT, "refreshkit")
        _ = refreshkit_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, "")
        _ = refreshkit_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = refreshkit_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        _ = refreshkit_curl_set_long(curl, CURLOPT_MAXREDIRS, 5)
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
        let code = withExtendedLifetime(body) { curl_easy_perform(curl) }
        if body.exceeded || code == CURLE_FILESIZE_EXCEEDED { throw .oversized(what: "body", limit: maxBytes) }
        if code == CURLE_OPERATION_TIMEDOUT { throw .timedOut(limitMs: timeoutMs) }
        guard code == CURLE_OK else {
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
}
