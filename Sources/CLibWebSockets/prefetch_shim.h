// A hint to the CPU: fetch memory about to be used (the server's SessionPrefetch, docs/PERFORMANCE.md, "A turn's
// inputs together"). Swift has no prefetch of its own.
#ifndef REFRESHKIT_CLIBWEBSOCKETS_PREFETCH_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_PREFETCH_SHIM_H

#include <stddef.h>

/// Asks the CPU to fetch the lines of `bytes` bytes from `start` into its caches, without waiting for them: eight
/// lines a step, so a 3 KB object costs ~90 instructions, not ~200 (a constant `bytes` unrolls whole).
static inline void rk_prefetch(const void *start, size_t bytes) {
    const char *line = (const char *)start, *end = line + bytes;
    for (; line + 512 <= end; line += 512) {
        __builtin_prefetch(line, 1, 3);
        __builtin_prefetch(line + 64, 1, 3);
        __builtin_prefetch(line + 128, 1, 3);
        __builtin_prefetch(line + 192, 1, 3);
        __builtin_prefetch(line + 256, 1, 3);
        __builtin_prefetch(line + 320, 1, 3);
        __builtin_prefetch(line + 384, 1, 3);
        __builtin_prefetch(line + 448, 1, 3);
    }
    for (; line < end; line += 64) __builtin_prefetch(line, 1, 3);
}

#endif
