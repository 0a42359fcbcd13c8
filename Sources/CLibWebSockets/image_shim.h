// The answers of `GET /feed/image` (Sources/RefreshServer/Images/ImageRequests.swift): binary bodies with the
// caching headers an image needs.
#ifndef REFRESHKIT_CLIBWEBSOCKETS_IMAGE_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_IMAGE_SHIM_H

#include <stdlib.h>
#include <string.h>

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

#endif
