import RefreshKit

/// The link's jitter and losses are drawn from the engine's seeded generator (SplitMix64,
/// `RefreshKit.SeededGenerator`), so a link behaves the same on every run with the same `--seed`.
public typealias LinkRandom = SeededGenerator
