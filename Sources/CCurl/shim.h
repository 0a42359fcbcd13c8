// Debian's libcurl (libcurl4-openssl-dev): fetching feeds and their images (Sources/RefreshFeeds/Web, docs/FEEDS.md).
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these typed wrappers can.
#include <curl/curl.h>

static inline CURLcode refreshkit_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode refreshkit_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode refreshkit_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode refreshkit_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
typedef size_t (*refreshkit_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode refreshkit_curl_set_write_function(CURL *curl, refreshkit_curl_write_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, callback);
}
/// The socket callback: curl asks it for every connection it opens (the first request, each redirect, each address
/// a name resolved to), with the address it will connect to; CURL_SOCKET_BAD refuses that address before any
/// packet leaves (docs/FEEDS.md, "What is fetched, and what is refused").
typedef curl_socket_t (*refreshkit_curl_opensocket_callback)(
    void *context, curlsocktype purpose, struct curl_sockaddr *address);
static inline CURLcode refreshkit_curl_set_opensocket(
    CURL *curl, refreshkit_curl_opensocket_callback callback, void *context) {
    CURLcode code = curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, context);
}
static inline curl_socket_t refreshkit_curl_socket_bad(void) { return CURL_SOCKET_BAD; }
static inline CURLcode refreshkit_curl_response_code(CURL *curl, long *code) {
    return curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
}
/// The answer's Content-Type (owned by curl until the handle is cleaned up; NULL when it had none).
static inline CURLcode refreshkit_curl_content_type(CURL *curl, const char **type) {
    return curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, type);
}
/// The answer's Retry-After, in seconds from now (0 when it had none), curl ≥ 7.66.
static inline CURLcode refreshkit_curl_retry_after(CURL *curl, curl_off_t *seconds) {
    return curl_easy_getinfo(curl, CURLINFO_RETRY_AFTER, seconds);
}
