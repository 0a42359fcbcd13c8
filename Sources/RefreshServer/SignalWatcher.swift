import Foundation

/// SIGINT and SIGTERM (and any other signals a command asks for, e.g. `link`'s SIGUSR1), taken
/// synchronously by one thread with `sigwait` (nothing runs in a signal handler, and a signal sent before
/// the watcher starts simply waits, blocked, until it does).
package enum SignalWatcher {
    private static func signalSet(_ extra: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM] + extra { sigaddset(&set, number) }
        return set
    }

    /// Blocks SIGINT, SIGTERM and `extra` in the calling thread (and so in every thread it starts later).
    package static func blockStopSignals(also extra: [Int32] = []) {
        var set = signalSet(extra)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the watcher thread; `handler` runs on it for each SIGINT, SIGTERM or signal in `extra` (which
    /// must have been blocked with ``blockStopSignals(also:)``).
    package static func start(also extra: [Int32] = [], _ handler: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread {
            var set = signalSet(extra)
            var number: Int32 = 0
            while sigwait(&set, &number) == 0 { handler(number) }
        }
        thread.name = "refreshkit-signals"
        thread.start()
    }
}
