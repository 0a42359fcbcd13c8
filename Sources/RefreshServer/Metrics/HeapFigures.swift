#if canImport(CJemalloc)
    import CJemalloc
#endif

/// What the server's heap holds now, for `/metrics` (docs/OPERATIONS.md): bytes handed out, and bytes kept in memory
/// for reuse. jemalloc's statistics; zero for both in the sanitizer builds, which allocate with the sanitizer's own
/// allocator and link no jemalloc (Package.swift, docs/HARDENING.md "Sanitizers").
struct HeapFigures {
    var inUse = 0
    var free = 0

    static func now() -> HeapFigures {
        #if canImport(CJemalloc)
            let figures = rk_jemalloc_now()
            return HeapFigures(inUse: Int(figures.in_use), free: Int(figures.free))
        #else
            return HeapFigures()
        #endif
    }
}
