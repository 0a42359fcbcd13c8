/// Cuts a failing trace down to a few steps that still fail the same way, so a report can show a minimal
/// reproduction instead of four hundred steps.
enum TraceShrinker {
    /// What a failure is about, without the numbers that change from one reproduction to the next.
    static func signature(_ problems: [String]) -> String {
        String((problems.first ?? "").filter { !$0.isNumber }.prefix(40))
    }

    /// The shortest trace found by removing chunks of steps (halving the chunk size down to one) while
    /// the run keeps failing with the same signature; at most `budget` runs.
    static func shrink(_ trace: Trace, budget: Int = 3000) -> Trace {
        guard let failure = TraceRunner.run(trace).failure else { return trace }
        let wanted = signature(failure.problems)
        var best = truncated(trace, after: failure.step)
        var runs = 0
        var chunk = max(1, best.steps.count / 2)
        while runs < budget {
            var index = 0
            var removedAny = false
            while index < best.steps.count && runs < budget {
                var candidate = best
                candidate.steps.removeSubrange(index..<min(index + chunk, best.steps.count))
                runs += 1
                if let found = TraceRunner.run(candidate).failure, signature(found.problems) == wanted {
                    best = truncated(candidate, after: found.step)
                    removedAny = true
                } else {
                    index += chunk
                }
            }
            if chunk == 1 && !removedAny { break }
            if !removedAny { chunk = max(1, chunk / 2) }
        }
        return best
    }

    private static func truncated(_ trace: Trace, after step: Int) -> Trace {
        var copy = trace
        if step < copy.steps.count { copy.steps.removeSubrange((step + 1)...) }
        return copy
    }

    /// The trace as lines a person (or a regression test) can read.
    static func describe(_ trace: Trace) -> String {
        var lines = [
            "preset \(trace.preset), seed \(trace.seed), viewport \(trace.viewport), dpr \(trace.devicePixelRatio), "
                + "start \(Trace.start) µs:"
        ]
        for step in trace.steps {
            switch step.action {
            case .tick: lines.append("  @\(step.time) advance")
            case .input(let input, let expectation): lines.append("  @\(step.time) \(compact(input)) [\(expectation)]")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A value with its `nil` fields and module prefixes left out.
    static func compact(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { compact($0.value) } ?? "nil"
        case .struct, .class:
            let fields = mirror.children.compactMap { child -> String? in
                let text = compact(child.value)
                return text == "nil" ? nil : "\(child.label ?? "_"): \(text)"
            }
            return "{" + fields.joined(separator: ", ") + "}"
        case .enum:
            guard let payload = mirror.children.first else { return "\(value)" }
            return "\(payload.label ?? "").\(compact(payload.value))"
        case .dictionary:
            let pairs = mirror.children.map { child -> String in
                let pair = Array(Mirror(reflecting: child.value).children)
                return pair.count == 2 ? "\(compact(pair[0].value)): \(compact(pair[1].value))" : compact(child.value)
            }
            return "[" + pairs.sorted().joined(separator: ", ") + "]"
        default:
            return "\(value)"
        }
    }
}
