// The few libwebsockets things Swift cannot import directly (function-like macros, compound option
// constants, container-of casts). See the transport research (§2.1) for why each one is here.
#ifndef REFRESHKIT_CLIBWEBSOCKETS_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_SHIM_H

#ifndef NDEBUG
#define NDEBUG 1 /* keep lws-logs.h out of its _DEBUG branch */
#endif
#include <libwebsockets.h>

/// Bytes lws needs in front of every buffer passed to lws_write (a macro expression in C).
enum { RK_LWS_PRE = LWS_PRE };

/// The server's one timer: the sul is the FIRST member, so a `lws_sorted_usec_list_t *` handed to the
/// timer callback is also a pointer to this struct (container-of without offset arithmetic).
typedef struct rk_tick {
    lws_sorted_usec_list_t sul;
    /// The unretained Swift object that owns the timer.
    void *owner;
} rk_tick_t;

/// The owner stored next to `sul` (see `rk_tick_t`).
static inline void *rk_tick_owner(lws_sorted_usec_list_t *sul) {
    return sul ? ((rk_tick_t *)sul)->owner : (void *)0;
}

/// Server options as unsigned 64-bit values (the macros are `long long` and some are compound).
static inline uint64_t rk_opt_security_headers(void) {
    return (uint64_t)LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
}
static inline uint64_t rk_opt_validate_utf8(void) { return (uint64_t)LWS_SERVER_OPTION_VALIDATE_UTF8; }
static inline uint64_t rk_opt_fail_upon_unable_to_bind(void) {
    return (uint64_t)LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
}
static inline uint64_t rk_opt_disable_ipv6(void) { return (uint64_t)LWS_SERVER_OPTION_DISABLE_IPV6; }

#endif

#include "load_shim.h"
#include "hardening_shim.h"
#include "event_loop_shim.h"
#include "memory_shim.h"
#include "prefetch_shim.h"
#include "tls_shim.h"
