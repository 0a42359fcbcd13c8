import AnchorScenarios
import Foundation

/// The bench's "anchor" stage (docs/PERFORMANCE.md, "Rows: anchoring"): the anchoring error during a fling, on
/// the real engine (``AnchorScenario/bench``: 250 rows read, a fling from the 150th), in the three
/// cases of ``AnchorCase``. Deterministic, so the same figures on any machine; `make bench` fails when one is
/// over ``AnchorFigures/targetPx`` (or a case could not run).
struct AnchorBench {
    var scenario = AnchorScenario.bench

    /// The figures as JSON: the scenario, each case's figures (or why it could not run), and whether all held.
    func run() -> [String: Any] {
        var cases: [String: Any] = [:]
        var holds = true
        for kind in AnchorCase.allCases {
            do {
                let figures = try scenario.run(kind)
                cases[kind.rawValue] = Self.json(figures)
                holds = holds && figures.holds
            } catch {
                cases[kind.rawValue] = ["error": "\(error)"]
                holds = false
            }
        }
        return [
            "target_px": AnchorFigures.targetPx, "loaded_rows": scenario.loadedRows, "start_row": scenario.startRow,
            "viewport": ["w": scenario.viewport.width, "h": scenario.viewport.height],
            "device_pixel_ratio": scenario.devicePixelRatio, "cases": cases, "holds": holds,
        ]
    }

    /// Whether every case ran and held (`nil`, the stage skipped: true).
    static func holds(_ anchor: [String: Any]?) -> Bool {
        guard let anchor, anchor["cases"] != nil else { return true }
        return anchor["holds"] as? Bool ?? false
    }

    static func json(_ figures: AnchorFigures) -> [String: Any] {
        [
            "title": figures.kind.title, "max_error_px": figures.maxErrorPx, "max_drift_px": figures.maxDriftPx,
            "holds": figures.holds, "frames": figures.frames, "held_rows": figures.heldRows,
            "rows_measured_in_view": figures.rowsMeasuredInView, "lift_offset_px": figures.liftOffsetPx,
            "changes": figures.changes.map { change in
                [
                    "frame": change.frame, "rows": change.rows, "grown_px": change.grownPx,
                    "correction_px": change.correctionPx, "velocity_before": change.velocityBefore,
                    "velocity_after": change.velocityAfter, "error_px": change.errorPx,
                ] as [String: Any]
            },
        ]
    }

    /// The stage's lines of the bench's table.
    static func table(_ anchor: [String: Any]?) -> String {
        guard let anchor, let cases = anchor["cases"] as? [String: Any] else {
            return "Anchoring: \((anchor?["note"] as? String) ?? "not run")"
        }
        let target = anchor["target_px"] as? Double ?? AnchorFigures.targetPx
        var lines = [
            "Anchoring during a fling (\(anchor["loaded_rows"] ?? "?") rows read down, the window holding those "
                + "near the viewport; from row "
                + "\(anchor["start_row"] ?? "?"); the first visible row's move on screen beyond the fling's own, "
                + "frame to frame; target ≤ \(target) px):"
        ]
        for kind in AnchorCase.allCases {
            guard let figures = cases[kind.rawValue] as? [String: Any] else { continue }
            if let error = figures["error"] {
                lines.append("  \(kind.title): could not run: \(error)")
                continue
            }
            let error = figures["max_error_px"] as? Double ?? .nan
            let drift = figures["max_drift_px"] as? Double ?? .nan
            let held = (figures["holds"] as? Bool ?? false) ? "holds" : "NOT held"
            lines.append(
                "  \(kind.title): max \(Self.px(error)) px (\(held)); drift \(Self.px(drift)) px over "
                    + "\(figures["frames"] ?? "?") frames from offset "
                    + String(format: "%.1f", figures["lift_offset_px"] as? Double ?? .nan) + " px, "
                    + "\(figures["rows_measured_in_view"] ?? "?") rows measured as they came into view")
            for change in figures["changes"] as? [[String: Any]] ?? [] {
                let before = change["velocity_before"] as? Double ?? .nan
                let after = change["velocity_after"] as? Double ?? .nan
                let correction = change["correction_px"] as? Double ?? .nan
                let grown = change["grown_px"] as? Double ?? .nan
                lines.append(
                    "    frame \(change["frame"] ?? "?"): \(change["rows"] ?? "?") rows, grew "
                        + String(format: "%.3f", grown) + " px, offset " + String(format: "%+.3f", correction)
                        + " px; velocity " + String(format: "%.3f", before) + " → " + String(format: "%.3f", after)
                        + " px/s (\(before == after ? "unchanged" : "CHANGED")); error "
                        + Self.px(change["error_px"] as? Double ?? .nan) + " px")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A distance of a few device pixels or far less, readable either way.
    private static func px(_ value: Double) -> String {
        value == 0 ? "0" : String(format: value < 0.001 ? "%.1e" : "%.3f", value)
    }
}
