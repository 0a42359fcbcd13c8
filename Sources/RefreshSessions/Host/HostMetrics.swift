import RefreshWire

/// The figures the host hands to a metrics system as they happen: only the rare ones (an `error` sent, by its
/// code). What happens on every input and frame is counted in plain integers instead (``HostCounters``, read by
/// the transport when its metrics are asked for).
public struct HostMetrics: Sendable {
    /// An `error` message written, by its code.
    public let error: @Sendable (ErrorCode) -> Void

    public init(error: @escaping @Sendable (ErrorCode) -> Void) {
        self.error = error
    }

    /// Counts nothing.
    public static var none: HostMetrics { HostMetrics(error: { _ in }) }
}
