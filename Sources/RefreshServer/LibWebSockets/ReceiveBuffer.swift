/// The size of libwebsockets' receive buffer for each `refreshkit.v1` connection (`rx_buffer_size`), allocated
/// when the connection opens and held while it lives: the largest piece of a message one RECEIVE callback
/// delivers. lws reads the socket into its one per-thread service buffer (`pt_serv_buf_size`, 16 KiB) whatever
/// this is; a message larger than it arrives in several pieces, which the host's ``MessageAssembler`` joins.
///
/// 1 004 bytes hold every message a page sends while it is used (a `touch` or `wheel` with its `seq` is under
/// 130 bytes, a `hello` that resumes a session with its id and token under 300); a `configure`, a preset file
/// or anything up to the 16 KiB limit comes in pieces. lws allocates the buffer with `LWS_PRE` (16) and 4 bytes
/// more: 1 024 in all, one of jemalloc's size classes (1 024 asked for 1 044, which took a block of 1 280). At
/// 4 KiB (lws-echo's, the floor's) each connection held 3 KiB more that a quiet page never used
/// (docs/PERFORMANCE.md, "Memory per connected session").
enum ReceiveBuffer {
    static let bytes = 1004
}
