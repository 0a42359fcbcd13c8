#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many descriptors the process may open, and how many of them lws may take for connections (docs/HARDENING.md,
/// "Descriptors").
///
/// A server that runs out of descriptors in `accept()` spins: lws logs `accept: errno 24`, returns, and the listening
/// socket is still readable, so the next turn does the same (two million lines in 10 s at `ulimit -n 256`), and a
/// normal request gets no answer. So the soft limit is raised to the hard one, and lws is given a table a little
/// smaller than that: when its table is full lws stops polling the listener (it leaves the new connections in the
/// kernel's queue) rather than failing to accept them, and the descriptors left over serve the rest of the process
/// (the feed's and the images' fetches, SQLite, the store, the log).
///
/// lws sizes its table from the soft limit when its context is made (a table indexed by descriptor, looked up in
/// constant time; lws's own `fd_limit_per_thread` would make every lookup a search). So the soft limit is set to the
/// table's size while the context is made, and raised to the whole limit after.
struct Descriptors: Equatable, Sendable {
    /// What the process may open once the server runs.
    let limit: Int
    /// What lws may take for connections (its table).
    let table: Int

    var reserve: Int { limit - table }

    /// The largest limit asked for: lws's table holds a pointer per descriptor.
    static let ceiling = 1 << 20

    /// The split of `hard` descriptors: a quarter of them kept for the rest, at most 256 and at least 16 (but never
    /// more than half).
    init(hard: Int) {
        limit = min(max(hard, 1), Self.ceiling)
        table = max(limit / 2, limit - min(256, max(16, limit / 4)))
    }

    /// The split of this process's hard limit (nil when it cannot be read).
    static func current() -> Descriptors? {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return nil }
        // rlim_t.max is RLIM_INFINITY (a macro Swift does not import)
        let hard = limits.rlim_max == rlim_t.max ? ceiling : Int(clamping: limits.rlim_max)
        return Descriptors(hard: hard)
    }

    /// Sets the soft limit to `value` (at most the hard one). - Returns: whether it was set.
    @discardableResult
    static func setSoftLimit(_ value: Int) -> Bool {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return false }
        limits.rlim_cur = rlim_t(value)
        return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0
    }

    /// Runs `makeContext` with the soft limit at ``table``, then raises it to ``limit``.
    func whileMakingContext<T>(_ makeContext: () -> T) -> T {
        Self.setSoftLimit(table)
        defer { Self.setSoftLimit(limit) }
        return makeContext()
    }
}
