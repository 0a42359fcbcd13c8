// TLS on the server's one port (docs/HTTPS.md): lws's compound option macros as values, and the answer a plain
// http:// request on that port gets (a redirect to the same path over https://).
#ifndef REFRESHKIT_CLIBWEBSOCKETS_TLS_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_TLS_SHIM_H

#include <string.h>

/// lws sets up OpenSSL (a context option; lws's TLS needs it).
static inline uint64_t rk_opt_tls_global_init(void) { return (uint64_t)LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }

/// A connection that does not start with a TLS hello is served as plain HTTP on the TLS port, so that the gate can
/// answer it (a redirect, or the CA for a phone that does not trust it yet) rather than lws hanging up.
static inline uint64_t rk_opt_http_on_tls_port(void) {
    return (uint64_t)(LWS_SERVER_OPTION_ALLOW_NON_SSL_ON_SSL_PORT | LWS_SERVER_OPTION_ALLOW_HTTP_ON_HTTPS_LISTENER);
}

/// A client context writes a connection's `origin` as given (a whole origin, `https://…`), not after `http://`.
static inline uint64_t rk_opt_raw_origin(void) { return (uint64_t)LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN; }

/// A client connection over TLS, the server's certificate checked against the context's CA.
static inline int rk_client_use_tls(void) { return (int)LCCSCF_USE_SSL; }

/// Writes `status` (a redirect) with `Location: location` and a one-line body. Returns 0 when written, -1 otherwise.
static inline int rk_http_redirect(struct lws *wsi, unsigned int status, const char *location) {
    unsigned char buffer[LWS_PRE + 4096];
    unsigned char *start = buffer + LWS_PRE, *p = start, *end = buffer + sizeof(buffer) - 1;
    static const char body[] = "this server speaks https\n";
    if (lws_add_http_header_status(wsi, status, &p, end)) return -1;
    if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_LOCATION, (const unsigned char *)location,
                                     (int)strlen(location), &p, end))
        return -1;
    if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, (const unsigned char *)"text/plain",
                                     10, &p, end))
        return -1;
    if (lws_add_http_header_content_length(wsi, (lws_filepos_t)(sizeof(body) - 1), &p, end)) return -1;
    if (lws_finalize_http_header(wsi, &p, end)) return -1;
    if ((size_t)(end - p) < sizeof(body) - 1) return -1;
    memcpy(p, body, sizeof(body) - 1);
    p += sizeof(body) - 1;
    return lws_write(wsi, start, (size_t)(p - start), LWS_WRITE_HTTP_HEADERS) < 0 ? -1 : 0;
}

#endif
