import CCurl
import Foundation

/// Fetches one image with Debian's libcurl (as the JSON Feed source does, `CurlFetcher`): http and https only
/// (redirects too, at most 5), within ``ImageLimits/timeoutMilliseconds`` and ``ImageLimits/maxImageBytes``
/// (a body past it is cut off as soon as it is past, not read to its end). Blocking: it runs on a fetcher
/// thread of ``ImageFetchService``, never on the service thread.
enum ImageFetcher {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// The body and `Content-Type` at `url`.
    static func fetch(_ url: String, limits: ImageLimits) -> Result<ImageEndpoint.Fetched, ImageEndpoint.FetchFailure> {
        guard initialized, let curl = curl_easy_init() else {
            return .failure(.sourceFailed("libcurl could not start"))
        }
        defer { curl_easy_cleanup(curl) }
        let body = Body(limit: limits.maxImageBytes)
        let context = Unmanaged.passUnretained(body).toOpaque()
        _ = refreshkit_curl_set_string(curl, CURLOPT_URL, url)
        _ = refreshkit_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = refreshkit_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = refreshkit_curl_set_string(curl, CURLOPT_USERAGENT, "refreshkit")
        _ = refreshkit_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = refreshkit_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        _ = refreshkit_curl_set_long(curl, CURLOPT_MAXREDIRS, 5)
        _ = refreshkit_curl_set_long(curl, CURLOPT_TIMEOUT_MS, limits.timeoutMilliseconds)
        _ = refreshkit_curl_set_offset(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxImageBytes))
        _ = refreshkit_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
        _ = refreshkit_curl_set_write_function(curl) { data, size, count, context in
            guard let data, let context else { return 0 }
            let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard body.bytes.count + length <= body.limit else {
                body.exceeded = true
                return 0
            }
            body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            return length
        }
        let code = withExtendedLifetime(body) { curl_easy_perform(curl) }
        if body.exceeded || code == CURLE_FILESIZE_EXCEEDED { return .failure(.tooLarge(limit: limits.maxImageBytes)) }
        if code == CURLE_OPERATION_TIMEDOUT { return .failure(.timedOut(milliseconds: limits.timeoutMilliseconds)) }
        guard code == CURLE_OK else {
            return .failure(.sourceFailed("\(url): \(String(cString: curl_easy_strerror(code)))"))
        }
        var status = 0
        _ = refreshkit_curl_response_code(curl, &status)
        guard (200..<300).contains(status) else { return .failure(.sourceFailed("\(url) answered HTTP \(status)")) }
        var type: UnsafePointer<CChar>?
        _ = refreshkit_curl_content_type(curl, &type)
        return .success(ImageEndpoint.Fetched(bytes: body.bytes, contentType: type.map { String(cString: $0) }))
    }

    /// The bytes received so far; touched only by the callback, on the calling thread.
    private final class Body {
        var bytes: [UInt8] = []
        let limit: Int
        var exceeded = false
        init(limit: Int) { self.limit = limit }
    }
}
