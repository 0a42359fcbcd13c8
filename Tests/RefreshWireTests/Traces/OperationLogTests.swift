import RefreshKit
import Testing

@testable import RefreshWire

/// The trace's compact records: what goes in comes out, in order, whatever the chunking, and the exported
/// JSON is the documented one (docs/TRACE.md).
struct OperationLogTests {
    private enum Written: Equatable {
        case apply(Int64, Int, [UInt8])
        case advance(Int64)
        case frame
    }

    private func read(_ log: OperationLog) -> [Written] {
        var out: [Written] = []
        // swift-format-ignore: ReplaceForEachWithForLoop
        // OperationLog is not a Sequence (its forEach walks the packed log).
        log.forEach { record in
            switch record {
            case .apply(let time, let member, let text): out.append(.apply(time.microseconds, member, Array(text)))
            case .advance(let time): out.append(.advance(time.microseconds))
            case .frame: out.append(.frame)
            }
        }
        return out
    }

    private func write(_ records: [Written], into log: inout OperationLog) {
        for record in records {
            switch record {
            case .apply(let time, let member, let text):
                text.withUnsafeBytes { log.appendApply($0, member: member, at: Timestamp(microseconds: time)) }
            case .advance(let time): log.appendAdvance(to: Timestamp(microseconds: time))
            case .frame: log.appendFrame()
            }
        }
    }

    @Test func recordsComeBackInOrderAcrossManyChunks() {
        // Times that go back, jump far and sit at the extremes; members past one byte; texts from empty to
        // larger than the largest chunk.
        var records: [Written] = []
        var generator = SeededGenerator(seed: 11)
        var time: Int64 = 0
        for index in 0..<5_000 {
            time &+= Int64.random(in: -2_000...50_000, using: &generator)
            switch index % 7 {
            case 0: records.append(.advance(time))
            case 1, 4: records.append(.frame)
            default:
                let count = index == 3_000 ? OperationLog.largestChunk + 10 : Int.random(in: 0...90, using: &generator)
                let text = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
                records.append(.apply(time, Int.random(in: 0...100_000, using: &generator), text))
            }
        }
        records += [.advance(.max), .advance(.min), .apply(0, Int.max, [1]), .frame]
        var log = OperationLog()
        write(records, into: &log)
        let back = read(log)
        // The first difference, not the whole list (it is long).
        #expect(back.count == records.count)
        #expect(back.indices.first { index in index < records.count && back[index] != records[index] } == nil)
    }

    @Test func byteCountIsWhatTheRecordsTake() {
        var log = OperationLog()
        #expect(log.byteCount == 0)
        log.appendFrame()
        #expect(log.byteCount == 1)
        log.appendAdvance(to: Timestamp(microseconds: 63))  // tag + Δt (zigzag 126: one byte)
        #expect(log.byteCount == 3)
        let text = Array(#"{"type":"touch"}"#.utf8)
        text.withUnsafeBytes { log.appendApply($0, member: 1, at: Timestamp(microseconds: 63 + 64)) }
        // tag, Δt 64 (zigzag 128: two bytes), member, length, the text.
        #expect(log.byteCount == 3 + 1 + 2 + 1 + 1 + text.count)
    }

    @Test func aTextThatBeginsAsThePageSendsComesBackWholeAndCountsWhole() {
        // Each known beginning: alone, with a short rest, with a rest past 127 bytes (a longer length varint
        // than the rest's), and spoiled in its last byte or cut short (kept whole).
        var texts: [[UInt8]] = []
        for index in 0..<TextPrefixes.count {
            let known = TextPrefixes.prefix(index)
            let prefix = Array(UnsafeRawBufferPointer(start: known.utf8Start, count: known.utf8CodeUnitCount))
            texts += [prefix, prefix + Array(#"0,"dy":-5,"t":1016.667,"id":1,"seq":2}"#.utf8)]
            texts.append(prefix + Array(repeating: UInt8(ascii: "7"), count: 100))
            texts.append(prefix.dropLast() + [UInt8(ascii: "x")] + Array("1}".utf8))
            texts.append(Array(prefix.dropLast()))
        }
        var records: [Written] = []
        var whole = 0  // what the records take as `a` records, every text whole
        for (index, text) in texts.enumerated() {
            let time = Int64(index) * 16_667
            records += [.apply(time, index, text), .frame]
            whole += 1 + varintCount(UInt64(index == 0 ? 0 : 33_334)) + varintCount(UInt64(index))
            whole += varintCount(UInt64(text.count)) + text.count + 1
        }
        var log = OperationLog()
        write(records, into: &log)
        #expect(read(log) == records)
        #expect(log.byteCount == whole)
        // A log holds a known beginning as one byte.
        var one = OperationLog()
        texts[1].withUnsafeBytes { one.appendApply($0, member: 0, at: Timestamp(microseconds: 0)) }
        let beginning = TextPrefixes.prefix(0).utf8CodeUnitCount
        #expect(one.byteCount == 4 + texts[1].count && one.tailCount == one.byteCount - beginning + 1)
    }

    /// The bytes of a LEB128 varint of `value`.
    private func varintCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value >> 7
        while rest > 0 {
            count += 1
            rest >>= 7
        }
        return count
    }

    @Test func aCopyKeepsItsOwnRecords() {
        var log = OperationLog()
        log.appendFrame()
        let copy = log
        log.appendAdvance(to: Timestamp(microseconds: 5))
        #expect(read(copy) == [.frame])
        #expect(read(log) == [.frame, .advance(5)])
    }

    @Test func theExportWritesEachRecordAsDocumented() throws {
        let header = TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 7,
            start: Timestamp(microseconds: 1_000))
        var recorder = TraceRecorder(header: header, digest: .values)
        let text = Array(#"{"type":"wheel","dx":0,"dy":4,"t":1.5}"#.utf8)
        text.withUnsafeBytes { recorder.recordApply($0, member: 2, at: Timestamp(microseconds: 1_500)) }
        recorder.recordAdvance(to: Timestamp(microseconds: 900))
        var session = try ListModel(viewport: header.viewport, time: header.start)
        recorder.recordFrame(session.frame())
        let json = String(decoding: recorder.json(), as: UTF8.self)
        let ops = """
            "ops":[
            {"t":1500,"member":2,"apply":{"type":"wheel","dx":0,"dy":4,"t":1.5}},
            {"t":900,"advance":true},
            {"frame":true}
            ],"frames":1,
            """
        #expect(json.contains(ops))
        #expect(recorder.jsonByteEstimate >= json.utf8.count)
    }
}
