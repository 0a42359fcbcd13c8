// Additions for the benchmark tools (refreshkit-bench, refreshkit-load, lws-echo); the server uses none of them.
// Kept in their own header so shim.h stays the server's.
#ifndef REFRESHKIT_CLIBWEBSOCKETS_LOAD_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_LOAD_SHIM_H

#include <malloc.h>
#include <stddef.h>

// glibc declares memmem only under _GNU_SOURCE, which would have to come before the first header of the module;
// declared here with glibc's signature instead.
void *memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/// Bytes of heap in use (glibc's `mallinfo2().uordblks`): the engine bench's memory per session.
static inline size_t rk_bench_heap_in_use(void) { return mallinfo2().uordblks; }

/// What refreshkit-load writes on stderr as its measured window opens and closes, each on a line of its own:
/// refreshkit-bench (ServerInstructions) and bench/profile/callgrind_server.py count callgrind's instructions between
/// the two.
#define RK_LOAD_WINDOW_OPENED "window open"
#define RK_LOAD_WINDOW_CLOSED "window closed"

/// Where `needle` first occurs in `haystack`, or NULL: glibc's `memmem` (a GNU extension, so not in Swift's Glibc
/// module), for the generator's reading of the frames it times.
static inline const void *rk_load_find(const void *haystack, size_t haystack_length, const void *needle,
                                       size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

#endif
