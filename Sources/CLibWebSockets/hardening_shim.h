// Helpers for the server's front door (Sources/RefreshServer/Hardening/Gatekeeper.swift): a complete HTTP refusal, and a
// complete answer (the server's dynamic answers, the feed's images with their caching headers), each written in
// one lws_write.
#ifndef REFRESHKIT_CLIBWEBSOCKETS_HARDENING_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_HARDENING_SHIM_H

#include <stdlib.h>
#include <string.h>

/// Writes `status` with a short `body` of `content_type` (and `Retry-After: retry_after` when not NULL) on an
/// HTTP connection that has not answered yet. Returns 0 when written, -1 otherwise.
static inline int rk_http_refuse_typed(struct lws *wsi, unsigned int status, const char *retry_after,
                                       const char *content_type, const char *body) {
    unsigned char buffer[LWS_PRE + 2048];
    unsigned char *start = buffer + LWS_PRE, *p = start, *end = buffer + sizeof(buffer) - 1;
    size_t length = body ? strlen(body) : 0;
    if (lws_add_http_header_status(wsi, status, &p, end)) return -1;
    if (retry_after &&
        lws_add_http_header_by_name(wsi, (const unsigned char *)"retry-after:", (const unsigned char *)retry_after,
                                    (int)strlen(retry_after), &p, end))
        return -1;
    if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, (const unsigned char *)content_type,
                                     (int)strlen(content_type), &p, end))
        return -1;
    if (lws_add_http_header_content_length(wsi, (lws_filepos_t)length, &p, end)) return -1;
    if (lws_finalize_http_header(wsi, &p, end)) return -1;
    if (length > (size_t)(end - p)) return -1;
    if (length) memcpy(p, body, length);
    p += length;
    return lws_write(wsi, start, (size_t)(p - start), LWS_WRITE_HTTP_HEADERS) < 0 ? -1 : 0;
}

/// Writes `status` with a short text/plain `body` (and `Retry-After: retry_after` when not NULL) on an
/// HTTP connection that has not answered yet. Returns 0 when written, -1 otherwise.
static inline int rk_http_refuse(struct lws *wsi, unsigned int status, const char *retry_after, const char *body) {
    return rk_http_refuse_typed(wsi, status, retry_after, "text/plain; charset=utf-8", body);
}

/// Writes a complete response on an HTTP connection that has not answered yet: `status`, `content_type`,
/// `cache_control`, an `ETag` when `etag` is not NULL, `Content-Length: length`, and the `length` bytes of
/// `body` unless `send_body` is 0 (a HEAD, a 304). One lws_write: lws keeps what the socket does not take at
/// once and sends it as the socket drains. Returns 0 when written, -1 otherwise.
static inline int rk_http_respond_bytes(struct lws *wsi, unsigned int status, const char *content_type,
                                        const char *cache_control, const char *etag, const unsigned char *body,
                                        size_t length, int send_body) {
    size_t size = LWS_PRE + 2048 + (send_body ? length : 0);
    unsigned char *buffer = malloc(size);
    if (!buffer) return -1;
    unsigned char *start = buffer + LWS_PRE, *p = start, *end = buffer + LWS_PRE + 2048;
    int failed =
        lws_add_http_header_status(wsi, status, &p, end) ||
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, (const unsigned char *)content_type,
                                     (int)strlen(content_type), &p, end) ||
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, (const unsigned char *)cache_control,
                                     (int)strlen(cache_control), &p, end) ||
        (etag && lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_ETAG, (const unsigned char *)etag,
                                              (int)strlen(etag), &p, end)) ||
        lws_add_http_header_content_length(wsi, (lws_filepos_t)(status == 304 ? 0 : length), &p, end) ||
        lws_finalize_http_header(wsi, &p, end);
    if (!failed) {
        if (send_body && length) {
            memcpy(p, body, length);
            p += length;
        }
        failed = lws_write(wsi, start, (size_t)(p - start), LWS_WRITE_HTTP_HEADERS) < 0;
    }
    free(buffer);
    return failed ? -1 : 0;
}

/// Writes a complete response, `status` with `content_type` and `length` bytes of `body`, with
/// `Cache-Control: no-store`, on an HTTP connection that has not answered yet (the server's few dynamic answers,
/// HTTPEndpoints.swift). Returns 0 when written (lws buffers what the socket does not take at once), -1 otherwise.
/// A `HEAD` request (`send_body` 0) gets the same headers and no body.
static inline int rk_http_respond(struct lws *wsi, unsigned int status, const char *content_type, const char *body,
                                  size_t length, int send_body) {
    return rk_http_respond_bytes(wsi, status, content_type, "no-store", NULL, (const unsigned char *)body, length,
                                 send_body);
}

#endif
