import RefreshKit
import RefreshWire

extension TracedListModel {
    /// The session `trace` recorded, rebuilt by applying its operations through the calls the server made
    /// (as ``TraceReplay`` does), recording on within `limits`: how a process takes over a session another
    /// one recorded (docs/SCALING.md). Throws when an operation does not decode or the frames' digest differs
    /// from the trace's (the rebuilt session would not be the one the pages saw).
    /// `presets` are those its preset names were looked up in.
    public static func replaying(_ trace: Trace, limits: TraceLimits, presets: PresetCatalogue = .seeds)
        throws(TraceError) -> TracedListModel
    {
        var traced: TracedListModel
        do {
            traced = try TracedListModel(
                header: trace.header, limits: limits, digest: trace.frames.kind, presets: presets)
        } catch {
            throw TraceError("the trace's session cannot be created: \(error.message)")
        }
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
