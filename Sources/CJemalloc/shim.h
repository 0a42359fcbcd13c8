// Debian's jemalloc 5.3 (libjemalloc-dev): the server's allocator, linked into the processes that serve
// (docs/PERFORMANCE.md, "The allocator"), and what its heap holds, for /metrics.
#ifndef REFRESHKIT_CJEMALLOC_SHIM_H
#define REFRESHKIT_CJEMALLOC_SHIM_H

#include <jemalloc/jemalloc.h>
#include <stddef.h>
#include <stdint.h>

/// What the heap holds: bytes handed out (`in_use`), and bytes resident in its pages besides those and its own
/// bookkeeping (`free`: touched memory kept for reuse). Zero for both if the statistics cannot be read.
typedef struct {
    size_t in_use;
    size_t free;
} rk_jemalloc_figures;

static inline size_t rk_jemalloc_stat(const char *name) {
    size_t value = 0, length = sizeof(value);
    return mallctl(name, &value, &length, NULL, 0) == 0 ? value : 0;
}

static inline rk_jemalloc_figures rk_jemalloc_now(void) {
    // The statistics are a snapshot, taken again when the epoch moves.
    uint64_t epoch = 1;
    size_t length = sizeof(epoch);
    mallctl("epoch", &epoch, &length, &epoch, length);
    size_t allocated = rk_jemalloc_stat("stats.allocated");
    size_t resident = rk_jemalloc_stat("stats.resident"), metadata = rk_jemalloc_stat("stats.metadata");
    size_t kept = resident > allocated + metadata ? resident - allocated - metadata : 0;
    rk_jemalloc_figures figures = {allocated, kept};
    return figures;
}

#endif
