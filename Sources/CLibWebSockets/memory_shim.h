// The C library's heap, as the server's /metrics and lws-echo's heap report show it (docs/PERFORMANCE.md,
// "Memory per connected session"). glibc's mallinfo2 sums every arena. And a prefetch of memory about to be used
// (the server's SessionPrefetch).
#ifndef REFRESHKIT_CLIBWEBSOCKETS_MEMORY_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_MEMORY_SHIM_H

#include <malloc.h>
#include <stddef.h>

/// What malloc holds: bytes handed out (`in_use`, the mmap'd blocks included), bytes free inside its arenas
/// (`free`: kept for reuse, resident where they were touched), and the arenas' size with the mmap'd blocks.
typedef struct {
    size_t in_use;
    size_t free;
    size_t total;
} rk_heap_figures;

static inline rk_heap_figures rk_heap_now(void) {
    struct mallinfo2 info = mallinfo2();
    rk_heap_figures figures = {info.uordblks + info.hblkhd, info.fordblks, info.arena + info.hblkhd};
    return figures;
}

/// Returns the free memory at the top of each arena and the free pages inside them to the kernel.
static inline void rk_heap_trim(void) { malloc_trim(0); }

/// Asks the CPU to fetch the lines of `bytes` bytes from `start` into its caches, without waiting for them: four
/// lines a step, so a 3 KB object costs ~80 instructions, not ~150.
static inline void rk_prefetch(const void *start, size_t bytes) {
    const char *line = (const char *)start, *end = line + bytes;
    for (; line + 256 <= end; line += 256) {
        __builtin_prefetch(line, 1, 3);
        __builtin_prefetch(line + 64, 1, 3);
        __builtin_prefetch(line + 128, 1, 3);
        __builtin_prefetch(line + 192, 1, 3);
    }
    for (; line < end; line += 64) __builtin_prefetch(line, 1, 3);
}

#endif
