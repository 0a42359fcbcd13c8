/// Exactly one holder per session (docs/SCALING.md, "Fencing"), after Kleppmann's fencing tokens and Chubby's
/// sequencers: every session has an *epoch* in the store. A new session starts at ``first``; a process that
/// takes a session over claims the next epoch (``claim(after:)``) with its first write, which the store's
/// script applies only when the stored epoch is older (the increment is that same script, so two processes
/// that read the same epoch cannot both claim the next). Every later write carries the writer's epoch, and the
/// store refuses one that is older than its own, or the same epoch written by another process
/// (``accepts(stored:storedWriter:epoch:writer:)``), answering with the holder's node and epoch
/// (``StoreFence``). A process told so stops serving the session at once and sends its pages to the holder
/// (``SessionHost/storeAnswered(_:at:)``).
///
/// The store also leaves the previous holder a notice when a take-over claims a session from it, which that
/// holder's next batch collects (``StoreBatch/node``): a holder whose session is idle (nothing to write) still
/// learns within a batch, not only when it next writes.
public enum SessionFence {
    /// The epoch of a session its process made.
    public static let first: Int64 = 1

    /// The epoch a take-over claims from a stored copy at epoch `stored` (0: the copy has none yet).
    public static func claim(after stored: Int64) -> Int64 { max(stored, 0) + 1 }

    /// The store's rule: whether a write at `epoch` by process `writer` applies to a copy at epoch `stored`,
    /// last written by `storedWriter` (`nil`: no copy, or one without an epoch). Older epochs are refused;
    /// the same epoch only from the process that claimed it.
    ///
    /// What runs is the store's script (`RedisWriter.script`, its first lines); this is the rule's statement in
    /// Swift, its specification: the tests' store applies it, and `FenceRuleTests` runs a table of cases through
    /// the real script on a redis-server and through this, which must agree. No process calls it.
    public static func accepts(stored: Int64, storedWriter: String?, epoch: Int64, writer: String) -> Bool {
        if epoch > stored { return true }
        return epoch == stored && (storedWriter == nil || storedWriter == writer)
    }

    /// Whether a process holding a session at epoch `held` must let it go, told `fence`: the store holds the
    /// session at `held` or later for another process (the same epoch: another process claimed it first). A
    /// notice older than `held` is about an earlier holding of this process's and changes nothing.
    public static func mustStepDown(held: Int64, told fence: StoreFence) -> Bool { fence.epoch >= held }
}

/// The store's word that another process holds session `session` at `epoch`, on node `node`: an answer to a
/// write it refused for its epoch, or a notice left for the previous holder by a take-over.
public struct StoreFence: Sendable, Hashable {
    public var session: String
    public var epoch: Int64
    public var node: String

    public init(session: String, epoch: Int64, node: String) {
        self.session = session
        self.epoch = epoch
        self.node = node
    }
}
