import CLibWebSockets
import RefreshKit
import RefreshSessions

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the CPU to fetch the memory of a held input's connection and session (``TurnInputs``) while lws reads the
/// next sockets, so that the host, handed the turn's inputs, finds them in the cache instead of waiting on each
/// line in turn. A prefetch waits for nothing and changes nothing the code reads: at worst it fetches a line for
/// nothing.
///
/// What is fetched: the connection's first ``connectionBytes``; the session object whole (3.2 KB: the host's
/// members, the recorded model and the engine's, whose hot members are spread over it, "Where an input stalls" in
/// docs/PERFORMANCE.md); and what the session points to that an input reads or writes: its connections' array,
/// the trace's tail chunk and the bytes its next record goes to, the controls that are switched on, and the two
/// frames' edge arrays. The addresses of the last, and the session's, are not read from the session, whose lines
/// have not arrived when the input is held: the connection's last input noted them (``InputMemory``), in lws's
/// memory of the connection, which the callback reads anyway ("Fetched from where the last input left its
/// addresses" in docs/PERFORMANCE.md). A connection's first input finds none noted, and reads the session's
/// address from the connection.
struct SessionPrefetch {
    /// The size of a session object's block (every one has the same), from the heap, read at the first input
    /// held: the allocator's size class (jemalloc's 3 584 bytes for a 3 265-byte object), so a few lines past the
    /// object are fetched too.
    private var sessionBytes = 0
    /// What the host reads of a connection on an input and its write (Connection.swift keeps those members first).
    static let connectionBytes = 320
    /// What a move reads of a control: its first bytes (RefreshKit's `EdgeControl` keeps them first).
    static let controlBytes = 96
    /// Array headers lie this many bytes before an array's elements (count and capacity after the object's).
    static let arrayHeaderBytes = 32
    /// What is fetched of a frame's edge array: its header and two edges (a list's top and bottom; a page with
    /// more edges finds the others as before). A constant, so that the fetch is unrolled, not a loop.
    static var edgeArrayBytes: Int { arrayHeaderBytes + 2 * MemoryLayout<EdgeFrame>.stride }

    /// An input of `connection` was held, with `memory` what its last input noted: fetch its memory and its
    /// session's.
    mutating func held(_ connection: Unmanaged<Connection>, memory: UnsafeRawPointer) {
        rk_prefetch(connection.toOpaque(), Self.connectionBytes)
        let noted = memory.load(as: InputMemory.self)
        guard let session = noted.session ?? connection._withUnsafeGuaranteedRef({ $0.sessionAddress }) else { return }
        if sessionBytes == 0 { sessionBytes = Self.blockSize(session) }
        rk_prefetch(session, sessionBytes)
        guard noted.session != nil else { return }
        let header = Self.arrayHeaderBytes
        if let connections = noted.connections { rk_prefetch(connections - header, header + 8) }
        if let chunk = noted.traceChunk { rk_prefetch(chunk, 32) }
        if let next = noted.traceNext { rk_prefetch(next, 128) }
        if let controls = noted.controls {
            rk_prefetch(controls - header, header)
            var live = noted.liveControls
            while live != 0 {
                rk_prefetch(controls + live.trailingZeroBitCount * MemoryLayout<EdgeControl>.stride, Self.controlBytes)
                live &= live - 1
            }
        }
        if let edges = noted.edges { rk_prefetch(edges - header, Self.edgeArrayBytes) }
        if let spare = noted.spareEdges { rk_prefetch(spare - header, Self.edgeArrayBytes) }
    }

    /// The size of the heap block at `pointer`: glibc's (and jemalloc's) `malloc_usable_size`, Darwin's
    /// `malloc_size` (Package.swift declares macOS too).
    private static func blockSize(_ pointer: UnsafeRawPointer) -> Int {
        #if canImport(Glibc)
            malloc_usable_size(UnsafeMutableRawPointer(mutating: pointer))
        #else
            malloc_size(pointer)
        #endif
    }
}
