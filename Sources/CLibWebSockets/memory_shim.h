// glibc's heap, as lws-echo's heap report shows it (docs/PERFORMANCE.md, "Memory per connected session"); the
// server allocates with jemalloc and reads its figures through Sources/CJemalloc. glibc's mallinfo2 sums every arena.
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

#endif
