import RefreshKit
import RefreshWire

extension TracedListModel {
    /// The session as `trace`'s operations start from it, recording within `limits`: a fresh one as the header
    /// describes it, or the one its snapshot holds (`SessionSnapshot`). Throws when the session cannot be made,
    /// or the snapshot does not read (another format version, damaged bytes) or digests frames of another kind
    /// than the trace.
    public static func starting(_ trace: Trace, limits: TraceLimits, presets: PresetCatalogue = .seeds)
        throws(TraceError) -> TracedListModel
    {
        guard let encoded = trace.snapshot else {
            do {
                return try TracedListModel(
                    header: trace.header, limits: limits, digest: trace.frames.kind, presets: presets)
            } catch {
                throw TraceError("the trace's session cannot be created: \(error.message)")
            }
        }
        let snapshot = try SessionSnapshot(encoded: encoded)
        guard snapshot.frames.kind == trace.frames.kind else {
            throw TraceError(
                "the snapshot digests \(snapshot.frames.kind.rawValue) and the trace \(trace.frames.kind.rawValue)")
        }
        return TracedListModel(
            header: trace.header, snapshot: snapshot, encoded: encoded, limits: limits, presets: presets)
    }

    /// The session `trace` recorded, rebuilt by applying its operations (from its snapshot, if it starts from
    /// one: ``starting(_:limits:presets:)``) through the calls the server made
    /// (as ``TraceReplay`` does), recording on within `limits`: how a process takes over a session another
    /// one recorded (docs/SCALING.md). Throws when an operation does not decode or the frames' digest differs
    /// from the trace's (the rebuilt session would not be the one the pages saw).
    /// `presets` are those its preset names were looked up in.
    public static func replaying(_ trace: Trace, limits: TraceLimits, presets: PresetCatalogue = .seeds)
        throws(TraceError) -> TracedListModel
    {
        var traced = try starting(trace, limits: limits, presets: presets)
        let decoder = MessageDecoder(presets: presets)
        var update = MessageBuffer()
        for (index, operation) in trace.operations.enumerated() {
            switch operation {
            case .apply(let time, let member, let text):
                let input: Input
                let seq: UInt64?
                do {
                    (input, seq) = try recordedInput(text, member: member, decoder: decoder)
                } catch {
                    throw TraceError("ops[\(index)] is not an input that decodes: \(error.description)")
                }
                text.withUnsafeBytes { bytes in
                    _ = try? traced.apply(ReceivedInput(input, seq: seq, text: bytes), member: member, at: time)
                }
            case .advance(let time):
                traced.advance(to: time)
            case .frame:
                update.removeAll()
                traced.frame(appendingUpdateTo: &update)
            }
            _ = traced.takeEvents()
            _ = traced.takeRowsUpdates()
        }
        guard traced.recorder.frames == trace.frames else {
            throw TraceError(
                "the replay's frames differ from the recording's (\(traced.recorder.frames.count) frames, digest "
                    + "\(String(traced.recorder.frames.value, radix: 16)); recorded \(trace.frames.count), "
                    + "\(String(trace.frames.value, radix: 16)))")
        }
        return traced
    }
}
