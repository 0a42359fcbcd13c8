import CLibWebSockets

// `GET /feed/image` at the front door: the request read from lws (method, `u`, `If-None-Match`) and screened by
// ``ImageRequests``; a refusal is written at once.
extension Gatekeeper {
    /// `FILTER_HTTP_CONNECTION` of `/feed/image`: 0 lets it on to the callback mount, which answers when ready.
    func screenImage(_ wsi: OpaquePointer, _ images: ImageRequests) -> Int32 {
        let method =
            lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0
            ? "GET" : lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0 ? "HEAD" : "other"
        let url = Self.longQueryArgument(wsi, "u", limit: images.limits.maxURLBytes)
        guard
            let response = images.screen(
                wsi, method: method, url: url, ifNoneMatch: Self.header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH),
                peer: client(of: wsi).description)
        else { return 0 }
        let written = response.body.withUnsafeBufferPointer { body in
            rk_http_respond_bytes(
                wsi, UInt32(response.status), response.contentType, response.cacheControl, response.etag,
                body.baseAddress, body.count, method == "HEAD" ? 0 : 1)
        }
        return written == 0 ? 1 : -1  // lws closes the connection after a refusal
    }

    /// A URL query argument of up to `limit` bytes, URL-decoded by lws; an argument longer than that is cut
    /// to `limit + 1` bytes (so a check of its length refuses it); nil when absent.
    static func longQueryArgument(_ wsi: OpaquePointer, _ name: String, limit: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: limit + name.utf8.count + 3)
        let count = Int32(buffer.count)
        return buffer.withUnsafeMutableBufferPointer { storage -> String? in
            guard let value = lws_get_urlarg_by_name(wsi, name + "=", storage.baseAddress, count) else { return nil }
            return String(cString: value)
        }
    }
}
