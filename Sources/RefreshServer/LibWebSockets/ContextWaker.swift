import CLibWebSockets

/// The lws context, handed to other threads only to wake its loop, the one lws call allowed from another thread:
/// ``Server/stop()``'s, the image fetchers' and the feed's (``FeedService/start(wake:)``). Whoever holds one clears
/// it before the context is destroyed, so `lws_cancel_service` never races `lws_context_destroy`.
struct ContextWaker: @unchecked Sendable {
    let context: OpaquePointer

    /// Wakes the loop (`lws_cancel_service`).
    func wake() { lws_cancel_service(context) }
}
