import RefreshKit

/// Where the memory that a connection's next input reads and writes lies, outside the connection: its session's
/// object, and the buffers the session points to. For a transport that asks the CPU to fetch it while it reads
/// other sockets (RefreshServer's `SessionPrefetch`): read after an input, when all of it is in the cache, and kept
/// where the transport finds it without a load from the connection's own memory (lws's per-connection memory).
///
/// Addresses only, none retained: by the next input any of them may be gone (a session left, a chunk filled), and a
/// prefetch of memory that is gone costs a fetch and changes nothing.
public struct InputMemory {
    /// The session object (the connection's session when it was read).
    public var session: UnsafeRawPointer?
    /// The session's array of connections, from its header on.
    public var connections: UnsafeRawPointer?
    /// The trace's tail chunk object (a record reads its bytes' address and capacity first).
    public var traceChunk: UnsafeRawPointer?
    /// The byte the trace's next record starts at.
    public var traceNext: UnsafeRawPointer?
    /// The engine's controls' array (its elements, a control's stride apart; the array's header before them).
    public var controls: UnsafeRawPointer?
    /// Which of ``controls`` a move reads: bit `index` for each control switched on.
    public var liveControls: UInt8 = 0
    /// The latest frame's edge array (its elements).
    public var edges: UnsafeRawPointer?
    /// The edge array the next frame is written into (the frame before the latest's).
    public var spareEdges: UnsafeRawPointer?

    /// Nothing noted: a connection before its first input (every address nil).
    public init() {}
}

extension Connection {
    /// Where this connection's next input will read and write (``InputMemory``); none without a session.
    public var inputMemory: InputMemory {
        var memory = InputMemory()
        // Through its address, not the optional reference: unwrapping that retained and released the session.
        guard let address = sessionAddress else { return memory }
        Unmanaged<Session>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.noteInputMemory(&memory) }
        return memory
    }
}
