// Additions for the benchmark tools (refreshkit-bench, refreshkit-load, lws-echo); the server uses none of them.
// Kept in their own header so shim.h stays the server's.
#ifndef REFRESHKIT_CLIBWEBSOCKETS_LOAD_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_LOAD_SHIM_H

#include <malloc.h>
#include <stddef.h>

/// Bytes of heap in use (glibc's `mallinfo2().uordblks`): the engine bench's memory per session.
static inline size_t rk_bench_heap_in_use(void) { return mallinfo2().uordblks; }

#endif
