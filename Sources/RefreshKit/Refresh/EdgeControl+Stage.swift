extension EdgeControl {
    /// Where an ``EdgeControl`` is in its machine, with the data that means something only there: a refresh's
    /// start, its running cycle and a finish that waits while refreshing; the exit's timing and where the
    /// control goes next while finishing; the retry back-off of a failed footer.
    ///
    /// Each state carries its own data, so leaving a state drops it and entering one sets all of it: nothing is
    /// reset by hand. ``state`` is the flat projection the wire, the events and the transition table
    /// (``EdgeState/legalTransitions``) speak of.
    public enum Stage: Hashable, Sendable, Codable {
        /// A state that carries no data.
        case plain(Plain)
        case refreshing(Refreshing)
        case finishing(Finishing)
        case failed(Failed)

        /// The states that carry no data.
        ///
        /// They are one case of ``Stage`` rather than five so that every case of it carries a payload: the flat
        /// ``state``, read on every step, is then its tag (and this byte), not a comparison of the whole
        /// payload, which is how Swift tells apart the cases without one.
        public enum Plain: Hashable, Sendable, Codable {
            case idle
            case pulling
            case armed
            case noMoreData
            case disabled
        }

        static var idle: Stage { .plain(.idle) }
        static var pulling: Stage { .plain(.pulling) }
        static var armed: Stage { .plain(.armed) }
        static var noMoreData: Stage { .plain(.noMoreData) }
        static var disabled: Stage { .plain(.disabled) }

        /// The flat state this stage shows.
        @inline(__always)
        public var state: EdgeState {
            switch self {
            case .plain(.idle): .idle
            case .plain(.pulling): .pulling
            case .plain(.armed): .armed
            case .plain(.noMoreData): .noMoreData
            case .plain(.disabled): .disabled
            case .refreshing: .refreshing
            case .finishing: .finishing
            case .failed: .failed
            }
        }
    }

    /// One run of the refreshing animation.
    public struct RunningCycle: Hashable, Sendable, Codable {
        public var index: Int
        public var start: Timestamp
    }

    /// A request that ended while the refresh may not end yet (the minimum visible time, a finger holding
    /// the content, the running cycle): how it ended and whether its end is animated.
    public struct PendingFinish: Hashable, Sendable, Codable {
        public var outcome: Outcome
        public var animated: Bool
    }

    /// A refresh under way, from its start to its end.
    public struct Refreshing: Hashable, Sendable, Codable {
        /// When the refresh started.
        public var start: Timestamp
        /// A finish may not end the refresh before this time (the minimum visible duration); `nil` once the
        /// time has passed with a finish waiting.
        public var visibleUntil: Timestamp?
        /// The running animation cycle: one always runs while refreshing.
        public var cycle: RunningCycle
        /// A finish that waits, if the request ended.
        public var pending: PendingFinish?
    }

    /// The exit animation after a refresh ended.
    public struct Finishing: Hashable, Sendable, Codable {
        /// When the refresh started.
        public var refreshStart: Timestamp
        /// When the exit animation started.
        public var exitStart: Timestamp
        /// The exit animation's length, seconds (0 for a finish that is not animated).
        public var exitDuration: Double
        /// Where the control goes once the exit animation ends.
        public var next: AfterExit

        /// When the exit animation ends.
        var exitEnd: Timestamp { exitStart.advanced(bySeconds: exitDuration) }
    }

    /// Where a control goes once its exit animation ends, by how the request ended.
    public enum AfterExit: Hashable, Sendable, Codable {
        /// A refresh, a cancel, a load with more pages, or a failed refresh.
        case idle
        /// A load whose page was the last.
        case noMoreData
        /// A load that failed: the footer offers a retry.
        case failed(Failed)

        var stage: Stage {
            switch self {
            case .idle: .idle
            case .noMoreData: .noMoreData
            case .failed(let failed): .failed(failed)
            }
        }
    }

    /// A footer whose last load failed.
    public struct Failed: Hashable, Sendable, Codable {
        /// Automatic retries wait until then (back-off); a command retries at once.
        public var retryNotBefore: Timestamp
    }

    // MARK: - The stage's data, read from outside

    /// When the running refresh started (refreshing or finishing).
    public var refreshStart: Timestamp? {
        switch stage {
        case .refreshing(let refreshing): refreshing.start
        case .finishing(let finishing): finishing.refreshStart
        default: nil
        }
    }

    /// The running animation cycle (refreshing).
    public var cycle: RunningCycle? {
        if case .refreshing(let refreshing) = stage { refreshing.cycle } else { nil }
    }

    /// When the exit animation started (finishing).
    public var exitStart: Timestamp? {
        if case .finishing(let finishing) = stage { finishing.exitStart } else { nil }
    }

    /// The running exit animation's length, seconds (0 for a finish that is not animated, and when no exit
    /// runs).
    public var exitDuration: Double {
        if case .finishing(let finishing) = stage { finishing.exitDuration } else { 0 }
    }

    /// When a failed footer may retry on its own (failed).
    public var retryNotBefore: Timestamp? {
        if case .failed(let failed) = stage { failed.retryNotBefore } else { nil }
    }
}
