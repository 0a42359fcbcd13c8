import Foundation
import RefreshKit
import RefreshWire
import Testing

/// Decodes `text` with the default limits.
func decode(_ text: String, limits: DecodingLimits = .init()) throws(WireError) -> ClientMessage {
    try MessageDecoder(limits: limits).decode(text)
}

/// Decodes raw bytes (which may be invalid UTF-8) with the default limits.
func decode(bytes: [UInt8], limits: DecodingLimits = .init()) throws(WireError) -> ClientMessage {
    try bytes.withUnsafeBytes { raw in
        Result { () throws(WireError) in try MessageDecoder(limits: limits).decode(raw) }
    }.get()
}

/// The error decoding `text` fails with, or nil when it decodes.
func decodingError(_ text: String, limits: DecodingLimits = .init()) -> WireError? {
    do {
        _ = try decode(text, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// Expects decoding `text` to fail with `code` (and `message` and `ref`, when given).
func expectError(
    _ text: String,
    _ code: ErrorCode,
    message: String? = nil,
    ref: String?? = .none,
    limits: DecodingLimits = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error = decodingError(text, limits: limits) else {
        Issue.record("expected \(code), but \(text) decoded", sourceLocation: sourceLocation)
        return
    }
    #expect(error.code == code, "\(text) → \(error)", sourceLocation: sourceLocation)
    if let message { #expect(error.message == message, sourceLocation: sourceLocation) }
    if case .some(let ref) = ref { #expect(error.ref == ref, "\(text) → \(error)", sourceLocation: sourceLocation) }
    #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
}

/// The encoder's output for one message, as text.
func encoded(_ write: (MessageEncoder, inout [UInt8]) -> Void) -> String {
    var buffer: [UInt8] = []
    write(MessageEncoder(), &buffer)
    return String(decoding: buffer, as: UTF8.self)
}

/// The encoder's output parsed by Foundation's `JSONSerialization`, which must accept it.
func foundationObject(_ write: (MessageEncoder, inout [UInt8]) -> Void) throws -> [String: Any] {
    var buffer: [UInt8] = []
    write(MessageEncoder(), &buffer)
    let object = try JSONSerialization.jsonObject(with: Data(buffer))
    return try #require(object as? [String: Any])
}

/// The engine's seeded generator (SplitMix64), with the draws the randomised tests make, so every one of them
/// is reproducible.
extension SeededGenerator {
    /// A value in `range`, from the generator's own bits (independent of the standard library's algorithm).
    mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    mutating func int(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func bool() -> Bool { next() & 1 == 1 }

    mutating func element<C: Collection>(of collection: C) -> C.Element where C.Index == Int {
        collection[collection.startIndex + int(below: collection.count)]
    }
}

/// Where the server's tick takes `session` next when time runs from `now` towards `end` (µs): 60 Hz while
/// it is active, else its next deadline, never past `end`; `due` says whether the session is advanced there.
/// The test drivers that replay time (TraceTests, FrameDeltaTests) step with it.
func nextServerTick(of session: ListModel, after now: Int64, until end: Int64) -> (time: Int64, due: Bool) {
    var next = end
    if session.isActive { next = min(next, now + 16_667) }
    if let deadline = session.nextDeadline?.microseconds, deadline > now { next = min(next, deadline) }
    let due = session.isActive || (session.nextDeadline.map { $0.microseconds <= next } ?? false)
    return (next, due)
}
