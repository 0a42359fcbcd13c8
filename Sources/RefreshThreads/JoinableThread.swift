import Foundation

/// A thread whose end can be waited for: ``join()`` returns once the thread is gone, its thread-local
/// destructors run.
///
/// Foundation's `Thread` cannot be joined, and a thread that only signals "done" as its last act is still
/// tearing down when the waiter goes on. At process exit that teardown races the libraries' exit handlers:
/// OpenSSL (which curl and libwebsockets use) deletes its per-thread key in `atexit`, and a thread whose key
/// destructor had not run yet leaves its per-thread state behind, which LeakSanitizer reports
/// (docs/HARDENING.md, "Threads end before the process does"). So every thread the server starts is one of these,
/// and stopping a part joins its threads. `@unchecked Sendable`: the handle is only read, to join.
package final class JoinableThread: @unchecked Sendable {
    #if canImport(Glibc)
        private let handle: pthread_t
    #else
        private let handle: pthread_t?
    #endif

    /// Starts a thread named `name` (Linux keeps at most 15 bytes: hence the server's short `rk-` names) that runs `body`.
    package init(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        #if canImport(Glibc)
            var handle = pthread_t()
            let status = pthread_create(&handle, nil, { Start.run($0) }, start)
        #else
            var handle: pthread_t?
            let status = pthread_create(&handle, nil, { Start.run($0) }, start)
        #endif
        precondition(status == 0, "pthread_create failed (\(status))")
        self.handle = handle
    }

    /// Blocks until the thread has ended. Call once.
    package func join() {
        #if canImport(Glibc)
            pthread_join(handle, nil)
        #else
            if let handle { pthread_join(handle, nil) }
        #endif
    }
}

/// What a new thread runs, handed over through `pthread_create`'s one pointer.
private final class Start {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    static func run(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let raw else { return nil }
        let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
        Thread.current.name = start.name
        start.body()
        return nil
    }
}
