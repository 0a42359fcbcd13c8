/// What a process did when it took a session over from the shared store (docs/SCALING.md): the `welcome`'s
/// `takeover`.
public struct TakeOver: Hashable, Sendable {
    /// The node that wrote the session last (the one that died or stopped).
    public var from: String
    /// How long loading and replaying the session took (µs).
    public var catchUpMicroseconds: Int64
    /// Operations replayed.
    public var operations: Int

    public init(from: String, catchUpMicroseconds: Int64, operations: Int) {
        self.from = from
        self.catchUpMicroseconds = catchUpMicroseconds
        self.operations = operations
    }
}
