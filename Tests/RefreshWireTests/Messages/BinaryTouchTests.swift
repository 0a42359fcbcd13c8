import RefreshKit
import Testing

@testable import RefreshWire

/// The binary spelling of a touch (docs/PROTOCOL.md, "Binary touch") against its JSON text: the one-pass read
/// must accept exactly what the general decoder accepts of that text, read the same values bit for bit, and
/// every refusal must be the general decoder's (or `binary_unsupported` for what is no binary touch at all).
@Suite("The binary touch")
struct BinaryTouchTests {
    let decoder = MessageDecoder()

    /// The bytes of a binary touch with these raw fields (any `Double`, any phase code and padding).
    static func message(
        phase: UInt8 = 1, dx: Double = 0, dy: Double = 0, t: Double = 100, id: Double = 0, seq: Double? = nil,
        padding: UInt64 = 0
    ) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: seq == nil ? 40 : 48)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: (1 | UInt64(phase) << 8 | padding << 16).littleEndian, as: UInt64.self)
            for (index, value) in [dx, dy, t, id, seq ?? 0].prefix(seq == nil ? 4 : 5).enumerated() {
                raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: 8 + 8 * index, as: UInt64.self)
            }
        }
        return bytes
    }

    /// What the one-pass read, the whole binary decode, and the general decoder of its JSON text make of `bytes`.
    func paths(_ bytes: [UInt8]) -> (
        fast: PlainTouchInput?, binary: Result<PlainTouchInput, WireError>, json: Result<ReceivedInput?, WireError>?
    ) {
        bytes.withUnsafeBytes { raw in
            let json = BinaryTouch.jsonText(raw).map { text in
                text.withUnsafeBytes { json in Result { () throws(WireError) in try decoder.decodeInput(json) } }
            }
            return (
                decoder.binaryTouchInput(raw), Result { () throws(WireError) in try decoder.decodeBinary(raw) }, json
            )
        }
    }

    /// Values at the edges of every check (zeros of both signs, the limits and just past them, integral and
    /// not, subnormal, huge, not finite) and ordinary ones.
    static let values: [Double] = [
        0, -0.0, 5, -5, 12.25, 1108.3000000000002, 1e-7, -2.5e-8, 0.1, 1e6, -1e6, 1e6.nextUp, 1e12, 1e12.nextUp,
        -1e12, 9_007_199_254_740_992, 9_007_199_254_740_994, 2.5, .leastNonzeroMagnitude, 1e300, .nan, .infinity,
        -.infinity, 123456.125, 1721.4000000000233,
    ]

    @Test func itReadsWhatItsJSONTextReadsAndRefusesWhatItRefuses() throws {
        var accepted = 0
        var refused = 0
        for phase in UInt8(0)..<4 {
            for (index, dx) in Self.values.enumerated() {
                for dy in [0, -3.5, 7] {
                    let t = Self.values[(index + Int(phase)) % Self.values.count]
                    let id = Self.values[(index * 7 + 3) % Self.values.count]
                    for seq in [nil, 0, 58, 9_007_199_254_740_992, 9_007_199_254_740_994, -1, 0.5, .nan] as [Double?] {
                        let bytes = Self.message(phase: phase, dx: dx, dy: dy, t: t, id: id, seq: seq)
                        let (fast, binary, json) = paths(bytes)
                        let general = try #require(json, "every binary touch has a JSON text")
                        switch general {
                        case .success(let received?):
                            let fast = try #require(fast, "the JSON text is accepted, the bytes are not: \(bytes)")
                            guard case .touch(let touch) = received.input else {
                                Issue.record("not a touch")
                                continue
                            }
                            // Bit for bit: a trace replays the JSON text, the live session applied the bytes.
                            #expect(fast.touch.delta.x.bitPattern == touch.delta.x.bitPattern)
                            #expect(fast.touch.delta.y.bitPattern == touch.delta.y.bitPattern)
                            #expect(fast.touch.pageTime.bitPattern == touch.pageTime.bitPattern)
                            #expect(fast.touch.phase == touch.phase && fast.touch.pointer == touch.pointer)
                            #expect(fast.seq == received.seq)
                            accepted += 1
                        case .success(nil):
                            Issue.record("a binary touch's JSON text is another message")
                        case .failure(let error):
                            #expect(fast == nil, "the bytes are accepted, their JSON text is not (\(error))")
                            #expect(binary == .failure(error), "the same refusal as the JSON text's")
                            refused += 1
                        }
                    }
                }
            }
        }
        #expect(accepted > 200 && refused > 2_000, "\(accepted) accepted, \(refused) refused")
    }

    @Test func anyValueInRangeReadsBitForBitAsItsJSONText() throws {
        // Random bit patterns cover every length of shortest decimal, subnormals and exponents.
        var generator = SeededGenerator(seed: 31)
        func random(_ limit: Double) -> Double {
            let value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            guard value.isFinite else { return 0 }
            let magnitude = abs(value)
            return magnitude <= limit ? value : value / magnitude * Double.random(in: 0...limit, using: &generator)
        }
        for _ in 0..<20_000 {
            let seq = Bool.random(using: &generator) ? Double(UInt64.random(in: 0...1 << 53, using: &generator)) : nil
            let bytes = Self.message(
                phase: UInt8.random(in: 0..<4, using: &generator), dx: random(1e6), dy: random(1e6),
                t: random(1e12), id: Double(Int.random(in: -(1 << 53)...(1 << 53), using: &generator)), seq: seq)
            let (fast, _, json) = paths(bytes)
            let general = try #require(json)
            guard case .success(let received?) = general, case .touch(let touch) = received.input, let fast else {
                Issue.record("refused: \(bytes), \(general)")
                continue
            }
            #expect(fast.touch.delta.x.bitPattern == touch.delta.x.bitPattern)
            #expect(fast.touch.delta.y.bitPattern == touch.delta.y.bitPattern)
            #expect(fast.touch.pageTime.bitPattern == touch.pageTime.bitPattern)
            #expect(fast.touch.pointer == touch.pointer && fast.seq == received.seq)
        }
    }

    @Test func anyBytesAreReadOrRefusedClearly() {
        // Random lengths and contents, near the two lengths most: never a crash, and an accepted message is
        // accepted by both paths alike.
        var generator = SeededGenerator(seed: 47)
        for round in 0..<20_000 {
            let count = round % 3 == 0 ? Int.random(in: 0...64, using: &generator) : [40, 48][round % 2]
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if count >= 8, round % 4 != 0 {  // mostly a touch's head, so the values are what is judged
                bytes.replaceSubrange(0..<8, with: [1, UInt8(round % 5), 0, 0, 0, 0, 0, 0])
            }
            let (fast, binary, _) = paths(bytes)
            switch binary {
            case .success(let touch): #expect(fast == touch, "\(bytes)")
            case .failure(let error):
                #expect(fast == nil && !error.message.isEmpty)
                #expect(
                    [.binaryUnsupported, .badField, .outOfRange].contains(error.code), "\(error.code): \(bytes)")
            }
        }
    }

    @Test func theBytesAreTheDocumentedLayout() {
        let touch = TouchInput(phase: .end, delta: Point(x: -1.5, y: 2), pageTime: 1234.5, pointer: 7)
        let bytes = BinaryTouch.bytes(touch, seq: 58)
        #expect(bytes.count == 48)
        #expect(Array(bytes[0..<8]) == [1, 2, 0, 0, 0, 0, 0, 0])
        #expect(bytes == Self.message(phase: 2, dx: -1.5, dy: 2, t: 1234.5, id: 7, seq: 58))
        #expect(BinaryTouch.bytes(touch, seq: nil).count == 40)
        let read = bytes.withUnsafeBytes { decoder.binaryTouchInput($0) }
        #expect(read?.touch == touch && read?.seq == 58)
    }

    @Test func itsJSONTextIsThePagesSpelling() throws {
        let bytes = Self.message(phase: 0, dx: -0.0, dy: 4.25, t: 1108.3000000000002, id: 1, seq: 9)
        let text = try #require(bytes.withUnsafeBytes { BinaryTouch.jsonText($0) })
        #expect(
            String(decoding: text, as: UTF8.self)
                == #"{"type":"touch","phase":"start","dx":0,"dy":4.25,"t":1108.3000000000002,"id":1,"seq":9}"#)
        let read = bytes.withUnsafeBytes { decoder.binaryTouchInput($0) }
        #expect(read?.touch.delta.x.sign == .plus, "a negative zero reads as the 0 its text says")
    }

    @Test func whatIsNoBinaryTouchIsUnsupported() {
        var wrongKind = Self.message()
        wrongKind[0] = 2
        var wrongPhase = Self.message()
        wrongPhase[1] = 4
        for bytes in [[], [1, 1, 0], Array(Self.message().prefix(39)), Self.message() + [0], wrongKind, wrongPhase] {
            let (_, binary, json) = paths(bytes)
            #expect(json == nil)
            guard case .failure(let error) = binary else {
                Issue.record("accepted: \(bytes)")
                continue
            }
            #expect(error.code == .binaryUnsupported && error.message.contains("got \(bytes.count) bytes"))
        }
    }

    @Test func nonZeroPaddingIsRefusedWithTheValidSeq() {
        let (_, binary, _) = paths(Self.message(seq: 12, padding: 1 << 40))
        #expect(
            binary
                == .failure(
                    WireError(
                        code: .badField, message: "bytes 2-7 of a binary touch must be zero", ref: "touch", seq: 12)))
    }

    @Test func aValueRefusedCarriesTheSeqAsInJSON() {
        let (_, binary, _) = paths(Self.message(dx: .nan, seq: 41))
        #expect(
            binary
                == .failure(
                    WireError(code: .badField, message: "touch.dx must be a finite number", ref: "touch", seq: 41)))
    }

    @Test func theTracesEstimateOfItsJSONCoversBinaryTouches() {
        let header = TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 7,
            start: Timestamp(microseconds: 1_000))
        var recorder = TraceRecorder(header: header, digest: .values)
        for index in 0..<200 {
            let bytes = Self.message(
                dx: 0.1 * Double(index), dy: -6.123456789, t: 1108.3000000000002 + Double(index), id: 1,
                seq: Double(index))
            bytes.withUnsafeBytes {
                recorder.recordBinaryApply($0, member: 0, at: Timestamp(microseconds: 1_795_478_700_532_110))
            }
        }
        #expect(recorder.jsonByteEstimate >= recorder.json().count, "the export's room is reserved once")
    }

    @Test func aTraceKeepsTheBytesAndExportsTheirJSONText() throws {
        var log = OperationLog()
        let bytes = Self.message(phase: 1, dx: 1, dy: -2.5, t: 77.125, id: 3, seq: 5)
        bytes.withUnsafeBytes { log.appendBinaryApply($0, member: 2, at: Timestamp(microseconds: 1_500)) }
        log.appendFrame()
        let countOfOne = log.byteCount
        let withoutSeq = Self.message(phase: 3, dx: -0.25, dy: 1e-7, t: 78, id: -4)
        withoutSeq.withUnsafeBytes { log.appendBinaryApply($0, member: 200, at: Timestamp(microseconds: 1_400)) }
        var records: [String] = []
        // swift-format-ignore: ReplaceForEachWithForLoop
        // OperationLog is not a Sequence (its forEach walks the packed log).
        log.forEach { record in
            switch record {
            case .apply(let time, let member, let text):
                records.append("\(time.microseconds) \(member) \(String(decoding: text, as: UTF8.self))")
            case .advance: records.append("advance")
            case .frame: records.append("frame")
            }
        }
        #expect(
            records == [
                #"1500 2 {"type":"touch","phase":"move","dx":1,"dy":-2.5,"t":77.125,"id":3,"seq":5}"#, "frame",
                #"1400 200 {"type":"touch","phase":"cancel","dx":-0.25,"dy":0.0000001,"t":78,"id":-4}"#,
            ])
        #expect(countOfOne == 1 + 2 + 1 + 1 + 40 + 1, "the record's own bytes: tag, Δt, member, phase, values")
        #expect(log.byteCount == countOfOne + 1 + 2 + 2 + 1 + 32)
    }
}
