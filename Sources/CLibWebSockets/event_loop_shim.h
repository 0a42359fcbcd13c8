// libuv as lws's event loop: epoll instead of lws's default poll(), which scans every descriptor on each
// wake-up (a third of the server's CPU at 500 connections, most of its idle cost; docs/PERFORMANCE.md).
// Debian's libwebsockets-dev depends on libuv1-dev and ships the uv event-loop plugin lws dlopens.
#ifndef REFRESHKIT_CLIBWEBSOCKETS_EVENT_LOOP_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_EVENT_LOOP_SHIM_H

#include <stdlib.h>
#include <uv.h>

/// The context options for running on a libuv loop. `UV_NO_SIGSEGV_SIGFPE_SPIN`: without it lws's uv
/// support installs SIGSEGV/SIGFPE handlers that spin (for attaching a debugger); a crash must stay a crash.
static inline uint64_t rk_opt_libuv(void) {
    return (uint64_t)(LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN);
}

/// A libuv loop for lws to join as its "foreign" loop (`info.foreign_loops`); NULL when libuv fails.
static inline uv_loop_t *rk_uv_loop_create(void) {
    uv_loop_t *loop = (uv_loop_t *)malloc(sizeof(uv_loop_t));
    if (loop && uv_loop_init(loop) != 0) {
        free(loop);
        loop = NULL;
    }
    return loop;
}

static void rk_uv_destroy_timer_closed(uv_handle_t *handle) { free(handle); }

static void rk_uv_destroy_context_now(uv_timer_t *timer) {
    lws_context_destroy((struct lws_context *)timer->data);
    uv_close((uv_handle_t *)timer, rk_uv_destroy_timer_closed);
}

/// Destroys `context` (when not NULL) and then `loop`. libuv closes handles asynchronously, so lws must
/// start its destruction from inside the running loop and the loop must run on until every handle lws
/// opened has closed (lws's foreign-loop example does the same; called from outside the loop, lws 4.1.6
/// closes a handle twice and libuv aborts). The caller closes its own handles first.
static inline void rk_uv_destroy(struct lws_context *context, uv_loop_t *loop) {
    if (!loop) {
        if (context) lws_context_destroy(context);
        return;
    }
    if (context) {
        uv_timer_t *timer = (uv_timer_t *)malloc(sizeof(uv_timer_t));
        if (timer) {
            uv_timer_init(loop, timer);
            timer->data = context;
            uv_timer_start(timer, rk_uv_destroy_context_now, 0, 0);
        } else {
            lws_context_destroy(context);
        }
    }
    uv_run(loop, UV_RUN_DEFAULT);
    uv_loop_close(loop);
    free(loop);
}

#endif
