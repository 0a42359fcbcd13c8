import ArgumentParser
import Foundation
import RefreshKit
import RefreshSessions
import RefreshWire

/// `refreshkit replay TRACE.json`: a recorded session, replayed headlessly (docs/TRACE.md).
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a recorded input trace headlessly and check its frames against the recording.",
        discussion: """
            Replays every operation of the trace (the page's messages, the server's ticks and frames) through a \
            fresh session, prints every state transition and the final state, then the number of frames and \
            their digest. Exits 0 when the frames are byte for byte the recorded ones, 1 when they differ, 2 \
            when the trace cannot be read. A trace comes from the page's "Export trace" (or the trace message).
            """
    )

    @Argument(help: "The trace file (refreshkit.trace.v2 JSON, or v1); - reads standard input.")
    var trace: String

    @Option(
        name: .customLong("preset-file"),
        help: ArgumentHelp(
            "A preset file the recording server offered (serve --preset-file); repeat for more.", valueName: "path"))
    var presetFiles: [String] = []

    @Flag(help: "Also print every frame message, one per line.")
    var frames = false

    @Flag(help: "Print one JSON object (transitions, final state, digest) instead of text.")
    var json = false

    func run() throws {
        let bytes: [UInt8]
        do {
            let data =
                trace == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: trace))
            bytes = [UInt8](data)
        } catch {
            Self.fail("cannot read \(trace): \(error.localizedDescription)")
            throw ExitCode(2)
        }
        let presets: PresetCatalogue
        do {
            presets = try PresetFiles.catalogue(presetFiles)
        } catch {
            Self.fail("\(error)")
            throw ExitCode(2)
        }
        let recorded: Trace
        let result: TraceReplay.Result
        if let partial = try? Trace(json: bytes), partial.partial {
            let member = partial.partialMember.map { "member \($0)'s" } ?? "one member's"
            Self.fail(
                "\(trace) is a partial trace: it holds the frames and ticks but only \(member) own messages "
                    + "(exported by a member that is not the session's owner; docs/PROTOCOL.md, \"trace\"), so "
                    + "it cannot reproduce the session's frames. Replay the owner's trace instead.")
            throw ExitCode(2)
        }
        do {
            recorded = try Trace(json: bytes)
            result = try TraceReplay(recorded, decoder: MessageDecoder(presets: presets)).run { _, message in
                guard frames, !json else { return }
                print(String(decoding: message, as: UTF8.self))
            }
        } catch {
            Self.fail("\(trace): \(error.message)")
            throw ExitCode(2)
        }
        if json {
            print(Self.jsonReport(recorded, result))
        } else {
            print(Self.textReport(recorded, result), terminator: "")
        }
        guard result.checked else {
            Self.fail(
                "a \(Trace.formatV1) trace: replayed, its frames not compared (they carried the simulated feed as it "
                    + "was then; docs/TRACE.md, \"Versions\")")
            return
        }
        guard result.matches else {
            Self.fail(
                "the replay differs from the recording: \(result.frames.count) frames, digest \(result.frames.hex); "
                    + "recorded \(recorded.frames.count) frames, digest \(recorded.frames.hex)")
            throw ExitCode.failure
        }
    }

    private static func fail(_ message: String) {
        FileHandle.standardError.write(Data("refreshkit replay: \(message)\n".utf8))
    }

    /// Milliseconds since the trace's start, e.g. `1234.567`.
    private static func since(_ start: Timestamp, _ time: Timestamp) -> String {
        let microseconds = time.microseconds - start.microseconds
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    private static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }

    /// The session's state after the replay (a copy's frame: the replay's own frames are untouched).
    private static func finalFrame(_ result: TraceReplay.Result) -> Frame {
        var session = result.model
        return session.frame()
    }

    static func textReport(_ trace: Trace, _ result: TraceReplay.Result) -> String {
        let header = trace.header
        let applies = trace.operations.reduce(0) { count, operation in
            if case .apply = operation { count + 1 } else { count }
        }
        var lines: [String] = []
        lines.append(
            "trace: preset \(header.preset), viewport \(number(header.viewport.width))×\(number(header.viewport.height)) "
                + "@\(number(header.devicePixelRatio))x, seed \(header.seed), \(trace.operations.count) operations "
                + "(\(applies) messages)\(trace.truncated ? ", truncated" : "")"
                + (operationsBefore(trace).map { ", from a snapshot after \($0) operations" } ?? ""))
        for event in result.events where event.name == .transition {
            let edge = event.edge?.rawValue ?? "-"
            let from = event.from?.rawValue ?? "?"
            let to = event.to?.rawValue ?? "?"
            lines.append("t=\(since(header.start, event.time))ms \(edge) \(from)→\(to) \(event.cause.rawValue)")
        }
        let frame = finalFrame(result)
        lines.append(
            "final: t=\(since(header.start, frame.time))ms offset (\(number(frame.offset.x)), \(number(frame.offset.y))) "
                + "phase \(frame.phase.rawValue)")
        lines.append(
            "  edges: " + frame.edges.map { "\($0.edge.rawValue) \($0.state.rawValue)" }.joined(separator: ", "))
        lines.append(
            "  feed: \(frame.feed.count) rows, hasMore \(frame.feed.hasMore)"
                + (frame.feed.loading ? ", loading" : ""))
        if result.refused > 0 { lines.append("  \(result.refused) recorded messages were refused (as when recorded)") }
        let verdict =
            !result.checked
            ? "not compared (a \(Trace.formatV1) trace)"
            : result.matches
                ? "matches the recording"
                : "DIFFERS from the recording (\(trace.frames.count) frames, digest \(trace.frames.hex))"
        lines.append("frames \(result.frames.count) digest \(result.frames.hex) — \(verdict)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The operations the session made before the snapshot the trace starts from, if it starts from one.
    private static func operationsBefore(_ trace: Trace) -> Int? {
        trace.snapshot.flatMap { try? SessionSnapshot(encoded: $0) }?.operationsBefore
    }

    static func jsonReport(_ trace: Trace, _ result: TraceReplay.Result) -> String {
        let start = trace.header.start
        let milliseconds = { (time: Timestamp) in Double(time.microseconds - start.microseconds) / 1000 }
        let transitions: [[String: Any]] = result.events.filter { $0.name == .transition }.map { event in
            [
                "t": milliseconds(event.time), "edge": event.edge?.rawValue ?? NSNull(),
                "from": event.from?.rawValue ?? NSNull(), "to": event.to?.rawValue ?? NSNull(),
                "cause": event.cause.rawValue,
            ]
        }
        let frame = finalFrame(result)
        let report: [String: Any] = [
            "transitions": transitions,
            "final": [
                "t": milliseconds(frame.time), "offset": ["x": frame.offset.x, "y": frame.offset.y],
                "phase": frame.phase.rawValue,
                "edges": Dictionary(uniqueKeysWithValues: frame.edges.map { ($0.edge.rawValue, $0.state.rawValue) }),
                "feed": [
                    "count": frame.feed.count, "hasMore": frame.feed.hasMore,
                    "loading": frame.feed.loading,
                ],
            ],
            "frames": result.frames.count, "digest": result.frames.hex,
            "recorded": ["frames": trace.frames.count, "digest": trace.frames.hex],
            "matches": result.matches, "checked": result.checked, "refused": result.refused,
            "truncated": trace.truncated,
            "snapshot": operationsBefore(trace).map { ["operationsBefore": $0] as Any } ?? NSNull(),
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
