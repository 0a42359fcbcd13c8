import Foundation
import RefreshKit
import Testing

/// The seeded random-trace property test (README.md, "Repository layout"): random traces of touches,
/// wheel streams, resizes, commands, `configure` patches, hostile numbers and time gaps, for every preset,
/// with the invariants of ``ModelInvariants`` checked after every step and a long settle at the end.
///
/// `REFRESHKIT_FUZZ_TRACES`, `REFRESHKIT_FUZZ_STEPS` and `REFRESHKIT_FUZZ_SEED` run more, longer or other
/// traces without a rebuild (the defaults keep the suite within a few seconds in debug).
@Suite struct ModelFuzzTests {
    static let tracesPerPreset = environment("REFRESHKIT_FUZZ_TRACES") ?? 40
    static let stepsPerTrace = environment("REFRESHKIT_FUZZ_STEPS") ?? 400
    static let firstSeed = UInt64(environment("REFRESHKIT_FUZZ_SEED") ?? 1)

    private static func environment(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
    }

    struct Summary: Sendable {
        var preset: String
        var inputs = 0
        var starts = 0
        var failures: [String] = []

        mutating func add(_ other: Summary) {
            inputs += other.inputs
            starts += other.starts
            failures += other.failures
        }
    }

    static func fuzz(_ preset: String, presetIndex: Int) -> Summary {
        var summary = Summary(preset: preset)
        for index in 0..<tracesPerPreset {
            let seed = UInt64(presetIndex) << 32 | (firstSeed + UInt64(index))
            let trace = Trace.random(preset: preset, seed: seed, length: stepsPerTrace)
            let result = TraceRunner.run(trace)
            summary.inputs += result.inputs
            summary.starts += result.starts
            guard let failure = result.failure else { continue }
            // The first new failure of a preset is shrunk into a reproduction; later ones are listed.
            let repro = summary.failures.isEmpty ? "\n" + TraceShrinker.describe(TraceShrinker.shrink(trace)) : ""
            summary.failures.append("\(preset) seed \(seed) step \(failure.step): \(failure.problems)\(repro)")
        }
        return summary
    }

    @Test func randomTracesKeepEveryInvariant() async {
        let clock = ContinuousClock()
        let begin = clock.now
        let summaries = await withTaskGroup(of: Summary.self) { group in
            for (index, preset) in Preset.names.enumerated() {
                group.addTask { Self.fuzz(preset, presetIndex: index) }
            }
            var all: [Summary] = []
            for await summary in group { all.append(summary) }
            return all.sorted { $0.preset < $1.preset }
        }
        var total = Summary(preset: "all")
        for summary in summaries {
            total.add(summary)
            print("model fuzz [\(summary.preset)]: \(summary.inputs) inputs, \(summary.starts) refreshes")
        }
        print(
            "model fuzz: \(total.inputs) inputs, \(summaries.count * Self.tracesPerPreset) traces × "
                + "\(Self.stepsPerTrace) steps, \(total.starts) refreshes, \(total.failures.count) failures; "
                + "\(clock.now - begin)")
        for failure in total.failures.prefix(10) {
            Issue.record(Comment(rawValue: failure))
        }
        #expect(total.inputs > summaries.count * Self.tracesPerPreset * Self.stepsPerTrace / 2)
    }

    @Test(arguments: Preset.names) func theSameSeedReplaysTheSameFrames(preset: String) {
        var hashes: Set<Int> = []
        for seed: UInt64 in 1...2 {
            let trace = Trace.random(preset: preset, seed: seed, length: Self.stepsPerTrace)
            let again = Trace.random(preset: preset, seed: seed, length: Self.stepsPerTrace)
            // (NaN inputs make `==` false; their descriptions are equal.)
            #expect(TraceShrinker.describe(again) == TraceShrinker.describe(trace))
            let first = TraceRunner.run(trace)
            let second = TraceRunner.run(again)
            #expect(first.frameHash == second.frameHash, "seed \(seed)")
            hashes.insert(first.frameHash)
        }
        #expect(hashes.count == 2, "different seeds give different frames")
    }
}
