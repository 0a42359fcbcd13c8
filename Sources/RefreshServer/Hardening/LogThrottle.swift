import CLibWebSockets

/// Logs a kind of refusal at most once per second, counting the ones left out.
struct LogThrottle {
    private var last: [String: Int64] = [:]
    private var suppressed: [String: Int] = [:]

    mutating func allow(_ key: String) -> Bool {
        let now = lws_now_usecs()
        if last.count >= 1024 {  // kinds that come from outside (lws's lines) are many: a bounded memory
            last.removeAll()
            suppressed.removeAll()
        }
        if let previous = last[key], now - previous < 1_000_000 {
            suppressed[key, default: 0] += 1
            return false
        }
        last[key] = now
        return true
    }

    mutating func takeSuppressed(_ key: String) -> Int {
        defer { suppressed[key] = 0 }
        return suppressed[key] ?? 0
    }
}
