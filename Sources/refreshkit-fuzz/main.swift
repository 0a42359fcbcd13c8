// libFuzzer target for the wire decoder and the model behind it (docs/HARDENING.md, "Fuzzing").
//
// Built only with `swift build -c release --sanitize=fuzzer --product refreshkit-fuzz` (scripts/fuzz.sh,
// `make fuzz`): libFuzzer then provides `main` and calls `LLVMFuzzerTestOneInput` for every input. In an
// ordinary build this executable does nothing.
//
// One input is a conversation: lines (split at `\n`) are WebSocket messages as a page would send them,
// each arriving a few milliseconds after the previous one. A line that starts with byte 1 is a binary message
// (a binary touch, docs/PROTOCOL.md, with no byte 10 in it), any other a text one. Every line goes through
// `MessageDecoder` like the server's; a `hello` opens a model; inputs are applied at the arrival time, and the model is
// advanced and asked for its frame after every message. Invariants (a violation aborts, which libFuzzer
// reports with the input):
// - the decoder never crashes, and every refusal is a `WireError` with a known code and a short message;
// - nothing a client sends makes a number of a frame non-finite, or a progress leave 0…1;
// - frame sequence numbers increase by one, frame time is the model's time, segments never end before
//   they start, events are never from the future;
// - every frame the encoder writes is valid JSON (the decoder's own grammar check accepts it), and so is the
//   delta from the frame before it (docs/PROTOCOL.md, "delta").

import RefreshKit
import RefreshWire

private let decoder = MessageDecoder()
private let encoder = MessageEncoder()
/// The codes the decoder raises (PROTOCOL.md's error table; the rest are the server's and the engine's).
private let codes: Set<ErrorCode> = [
    .badJSON, .badMessage, .unknownType, .missingField, .badField, .outOfRange, .unknownCommand,
]
private let maxMessages = 64
private let maxMessageBytes = 16 * 1024

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data, count > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: count)
    var conversation = Conversation()
    var start = 0
    var messages = 0
    while start <= bytes.count && messages < maxMessages {
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        let line = UnsafeBufferPointer(rebasing: bytes[start..<min(end, start + maxMessageBytes)])
        conversation.receive(UnsafeRawBufferPointer(line))
        messages += 1
        start = end + 1
    }
    conversation.finish()
    return 0
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fatalError("invariant violated: \(message())")
    }
}

private struct Conversation {
    var model: ListModel?
    var lastSequence: UInt64?
    /// The previous frame of the model: the base of the next delta.
    var lastFrame: Frame?
    /// The server's clock, µs: each message arrives a little after the previous one.
    var now = Timestamp(microseconds: 1_000_000)

    mutating func receive(_ text: UnsafeRawBufferPointer) {
        now = now.advanced(byMicroseconds: 1000 + Int64(text.count % 40) * 997)
        let message: ClientMessage
        do {
            if text.first == BinaryTouch.kindTouch {
                let touch = try decoder.decodeBinary(text)
                message = .input(.touch(touch.touch), seq: touch.seq)
            } else {
                message = try decoder.decode(text)
            }
        } catch {
            check(codes.contains(error.code) || error.code == .binaryUnsupported, "unknown decoder code \(error.code)")
            check(!error.message.isEmpty && error.message.utf8.count < 600, "error message: \(error.message)")
            return
        }
        switch message {
        case .hello(let hello):
            check(hello.viewport.width.isFinite && hello.viewport.height.isFinite && hello.dpr.isFinite, "hello")
            do {
                model = try ListModel(
                    viewport: hello.viewport, devicePixelRatio: hello.dpr, preset: hello.preset ?? "ios",
                    seed: hello.seed ?? 1, time: now)
                lastSequence = nil
                lastFrame = nil
            } catch {
                check(!error.message.isEmpty, "model error without a message")
            }
        case .input(let input, _):
            guard model != nil else { return }
            do {
                try model!.apply(input, at: now)
            } catch {
                check(!error.message.isEmpty, "model error without a message")
            }
        case .ping(let t):
            check(t.isFinite, "ping t \(t)")
        case .trace:
            break
        }
        observe()
    }

    /// After the conversation: time runs on until nothing is scheduled (bounded), as the tick would.
    mutating func finish() {
        for _ in 0..<200 {
            guard let deadline = model?.nextDeadline else { break }
            now = max(now, deadline)
            model!.advance(to: now)
            observe()
        }
    }

    private mutating func observe() {
        guard model != nil else { return }
        model!.advance(to: now)
        let events = model!.takeEvents()
        for event in events {
            check(event.time <= model!.now, "an event from the future: \(event)")
        }
        let frame = model!.frame()
        if let lastSequence {
            check(frame.sequence == lastSequence + 1, "sequence \(frame.sequence) after \(lastSequence)")
        }
        lastSequence = frame.sequence
        check(frame.time == model!.now, "frame time \(frame.time) is not the model's \(model!.now)")
        for value in frame.allNumbers { check(value.isFinite, "a non-finite number in \(frame)") }
        for edge in frame.edges { check((0...1).contains(edge.progress), "progress \(edge.progress)") }
        for segment in frame.horizontalMotion + frame.verticalMotion {
            if let end = segment.end { check(end >= segment.start, "segment ends before it starts: \(segment)") }
        }
        var encoded: [UInt8] = []
        encoder.encode(frame, into: &encoded)
        // A frame is not a page message: the decoder must get past the JSON grammar and refuse its type.
        check(
            refusal(encoded) == .unknownType,
            "the encoded frame is not valid JSON (\(refusal(encoded)?.rawValue ?? "-"))")
        if let lastFrame {
            encoded.removeAll()
            encoder.encodeDelta(frame, from: lastFrame, into: &encoded)
            check(
                refusal(encoded) == .unknownType,
                "the encoded delta is not valid JSON (\(refusal(encoded)?.rawValue ?? "-"))")
        }
        lastFrame = frame
    }

    /// The decoder's error code for `message`, nil when it accepts it.
    private func refusal(_ message: [UInt8]) -> ErrorCode? {
        message.withUnsafeBytes { bytes -> ErrorCode? in
            do throws(WireError) {
                _ = try decoder.decode(bytes)
                return nil
            } catch {
                return error.code
            }
        }
    }
}
