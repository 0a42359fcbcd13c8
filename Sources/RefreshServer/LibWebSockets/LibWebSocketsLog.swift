import CLibWebSockets
import Logging
import Synchronization

/// Routes libwebsockets' own log lines into swift-log. lws keeps one process-wide log level and emit
/// function, so this is process-wide too: the last server started decides where lws logs go.
///
/// A line of one kind (its text with the numbers left out: `accept: errno 24` and `accept: errno 23` are one kind)
/// is logged at most once a second, with how many were left out since (`suppressed=`), like the gate's own
/// refusals: a client that makes lws complain cannot fill the disk (docs/HARDENING.md, "Descriptors").
enum LibWebSocketsLog {
    private struct Target {
        var logger: Logger
        var throttle = LogThrottle()
    }

    private static let target = Mutex<Target?>(nil)

    /// Sends lws's lines to `logger` (label `lws`), keeping only the lws levels worth seeing at
    /// `logger.logLevel`: errors and warnings, plus notices from `debug` and info lines at `trace`.
    static func install(_ logger: Logger) {
        var lwsLogger = logger
        lwsLogger[metadataKey: "component"] = "lws"
        target.withLock { $0 = Target(logger: lwsLogger) }
        var levels = LLL_ERR | LLL_WARN
        if logger.logLevel <= .debug { levels |= LLL_NOTICE }
        if logger.logLevel <= .trace { levels |= LLL_INFO }
        lws_set_log_level(levels, lwsEmit)
    }

    /// lws error lines a client can cause at will (docs/HARDENING.md): logged as notices, so an attacker
    /// cannot fill the log with `error`s.
    static let clientCaused = ["Ran out of header data space"]

    fileprivate static func emit(level: Int32, line: UnsafePointer<CChar>?) {
        guard let line else { return }
        var text = String(cString: line)
        while let last = text.last, last.isNewline || last == " " { text.removeLast() }
        let kind = String(text.prefix(40).map { $0.isNumber ? "#" : $0 })
        let allowed = target.withLock { target -> (Logger, Int)? in
            guard target != nil, target!.throttle.allow(kind) else { return nil }
            return (target!.logger, target!.throttle.takeSuppressed(kind))
        }
        guard let (logger, suppressed) = allowed else { return }
        let swiftLevel: Logger.Level =
            switch level {
            case LLL_ERR where clientCaused.contains(where: text.hasPrefix): .notice  // a hostile request, not a fault
            case LLL_ERR: .error
            case LLL_WARN: .warning
            case LLL_NOTICE: .debug
            default: .trace
            }
        logger.log(
            level: swiftLevel, "\(text)", metadata: suppressed > 0 ? ["suppressed": "\(suppressed)"] : nil)
    }
}

/// The C-convention emit function lws calls (on whichever thread logs; in practice the service thread).
private func lwsEmit(level: Int32, line: UnsafePointer<CChar>?) {
    LibWebSocketsLog.emit(level: level, line: line)
}
