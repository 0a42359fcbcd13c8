import CLibWebSockets
import Glibc
import RefreshSessions

/// Asks the CPU to fetch the memory of a held input's connection and session (``TurnInputs``) while lws reads the
/// next sockets, so that the host, handed the turn's inputs, finds them in the cache instead of waiting on each
/// line in turn. A prefetch waits for nothing and changes nothing the code reads: at worst it fetches a line for
/// nothing.
///
/// What is fetched: the session object whole (3.2 KB: the host's members, the recorded model and the engine's,
/// whose hot members are spread over it, "Where an input stalls" in docs/PERFORMANCE.md) and the connection's
/// first ``connectionBytes``. Not what they point to (the trace's tail, the controls' and frames' arrays): their
/// addresses are in the session's lines, not yet arrived when the input is held. Fetching them one read later
/// measured no better, and one input ahead in the hand-over gained ~0.1 µs for ~290 instructions a visit
/// (docs/PERFORMANCE.md, "A turn's inputs together"). Fetching only the 27 of the object's 52 lines that a move
/// touches measured the same as fetching it whole ("What a move touches of its session").
struct SessionPrefetch {
    /// The size of a session object (every one has the same), from the heap, read at the first input held.
    private var sessionBytes = 0
    /// What the host reads of a connection on an input and its write (Connection.swift keeps those members first).
    static let connectionBytes = 320

    /// An input of `connection` was held: fetch its memory and its session's.
    mutating func held(_ connection: Unmanaged<Connection>) {
        rk_prefetch(connection.toOpaque(), Self.connectionBytes)
        guard let session = connection._withUnsafeGuaranteedRef({ $0.sessionAddress }) else { return }
        if sessionBytes == 0 { sessionBytes = malloc_usable_size(UnsafeMutableRawPointer(mutating: session)) }
        rk_prefetch(session, sessionBytes)
    }
}
