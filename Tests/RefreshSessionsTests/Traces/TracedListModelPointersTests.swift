import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// The pointers a recorded model keeps as down (what a process taking the session over lifts): ordered by member,
/// and within a member by their latest sample, whether a move updates one in place or moves it behind the others.
@Suite struct TracedListModelPointersTests {
    private func model() throws -> TracedListModel {
        let header = TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1,
            start: Timestamp(microseconds: 1_000_000))
        return try TracedListModel(header: header)
    }

    private func touch(
        _ model: inout TracedListModel, _ phase: TouchPhase, pointer: Int, member: Int, at milliseconds: Double
    ) {
        let text = Array(
            #"{"type":"touch","phase":"\#(phase.rawValue)","dx":0,"dy":1,"t":\#(milliseconds),"pointer":\#(pointer)}"#
                .utf8)
        let input = Input.touch(
            TouchInput(phase: phase, delta: Point(x: 0, y: 1), pageTime: milliseconds, pointer: pointer))
        text.withUnsafeBytes {
            _ = try? model.apply(
                ReceivedInput(input, text: $0), member: member,
                at: Timestamp(microseconds: 1_000_000 + Int64(milliseconds * 1000)))
        }
    }

    private func down(_ model: TracedListModel) -> [String] {
        model.pointersDown.map { "\($0.member):\($0.pointer)@\(Int($0.pageTime))" }
    }

    @Test func aMoveOfTheLastPointerOfItsMemberUpdatesItWhereItIs() throws {
        var model = try model()
        touch(&model, .start, pointer: 1, member: 0, at: 10)
        touch(&model, .start, pointer: 7, member: 1, at: 11)
        touch(&model, .move, pointer: 1, member: 0, at: 20)
        touch(&model, .move, pointer: 1, member: 0, at: 30)
        #expect(down(model) == ["0:1@30", "1:7@11"])
    }

    @Test func aMoveOfAnEarlierPointerPutsItBehindItsMembersOthers() throws {
        var model = try model()
        touch(&model, .start, pointer: 1, member: 0, at: 10)
        touch(&model, .start, pointer: 2, member: 0, at: 11)
        touch(&model, .start, pointer: 7, member: 1, at: 12)
        touch(&model, .move, pointer: 1, member: 0, at: 20)
        #expect(down(model) == ["0:2@11", "0:1@20", "1:7@12"])
        touch(&model, .end, pointer: 2, member: 0, at: 30)
        #expect(down(model) == ["0:1@20", "1:7@12"])
    }
}
