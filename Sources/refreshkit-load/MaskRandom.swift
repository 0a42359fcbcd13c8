import CLibWebSockets

// lws 4.1.6 fills every client frame's 4-byte mask from `lws_get_random`, which reads /dev/urandom: one more
// system call per input, about 4 % of the generator's CPU at 1 000 sessions (perf: `read` and
// `crng_make_state`), on a machine whose cores the generator shares with the server it measures. A mask only
// keeps intermediaries from taking a client's frames for something else (RFC 6455 §10.3); on loopback,
// against our own server, nothing is in between. So the generator answers lws from a xorshift generator: lws
// calls `lws_get_random` through its PLT, and the dynamic linker binds that call to the executable's own
// definition first. (Swift exports an executable's public symbols: `nm -D refreshkit-load` lists it, and
// `strace -c -e read` shows the reads gone: 49 in a 2 s run of 20 sessions, all at start-up, against one
// per input before.)

/// Marsaglia's xorshift64 ("Xorshift RNGs", Journal of Statistical Software 8(14), 2003; shifts 13, 7, 17).
/// Only the generator's one thread calls it, from inside lws.
nonisolated(unsafe) private var maskState: UInt64 = 0x9E37_79B9_7F4A_7C15

@_cdecl("lws_get_random")
public func maskRandom(_ context: OpaquePointer?, _ buffer: UnsafeMutableRawPointer?, _ length: Int) -> Int {
    guard let buffer else { return 0 }
    var filled = 0
    while filled < length {
        maskState ^= maskState << 13
        maskState ^= maskState >> 7
        maskState ^= maskState << 17
        withUnsafeBytes(of: maskState) { word in
            let count = Swift.min(word.count, length - filled)
            (buffer + filled).copyMemory(from: word.baseAddress!, byteCount: count)
            filled += count
        }
    }
    return length
}
