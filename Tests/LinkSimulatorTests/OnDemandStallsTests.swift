import Testing

@testable import LinkSimulator

@Suite("OnDemandStalls")
struct OnDemandStallsTests {
    @Test func withoutARequestTheLinkIsOpen() {
        let stalls = OnDemandStalls()
        #expect(stalls.windows.isEmpty)
        #expect(stalls.earliestOpen(atOrAfter: 123) == 123)
    }

    @Test func aRequestHoldsFromItsTimeForItsDuration() {
        var stalls = OnDemandStalls()
        stalls.stall(from: 1000, durationMs: 300)
        #expect(stalls.windows == [.init(start: 1000, end: 1300)])
        #expect(stalls.earliestOpen(atOrAfter: 999.9) == 999.9)  // due before the request: not held
        #expect(stalls.earliestOpen(atOrAfter: 1000) == 1300)
        #expect(stalls.earliestOpen(atOrAfter: 1299.9) == 1300)
        #expect(stalls.earliestOpen(atOrAfter: 1300) == 1300)
        #expect(stalls.earliestOpen(atOrAfter: 2000) == 2000)
    }

    @Test func aRequestInsideAStallExtendsIt() {
        var stalls = OnDemandStalls()
        stalls.stall(from: 1000, durationMs: 300)
        stalls.stall(from: 1200, durationMs: 300)
        stalls.stall(from: 1250, durationMs: 10)  // ends inside: changes nothing
        #expect(stalls.windows == [.init(start: 1000, end: 1500)])
        #expect(stalls.earliestOpen(atOrAfter: 1100) == 1500)
        stalls.stall(from: 1500, durationMs: 100)  // at the end: still one window
        #expect(stalls.windows == [.init(start: 1000, end: 1600)])
        stalls.stall(from: 2000, durationMs: 100)
        #expect(stalls.windows == [.init(start: 1000, end: 1600), .init(start: 2000, end: 2100)])
        #expect(stalls.earliestOpen(atOrAfter: 1800) == 1800)
        #expect(stalls.earliestOpen(atOrAfter: 2050) == 2100)
    }

    @Test func aZeroDurationRecordsNothing() {
        var stalls = OnDemandStalls()
        stalls.stall(from: 1000, durationMs: 0)
        #expect(stalls.windows.isEmpty)
    }

    @Test func forgettingDropsOnlyWindowsThatAreOver() {
        var stalls = OnDemandStalls()
        stalls.stall(from: 1000, durationMs: 300)
        stalls.stall(from: 2000, durationMs: 300)
        stalls.forget(before: 1299)
        #expect(stalls.windows.count == 2)
        stalls.forget(before: 1300)
        #expect(stalls.windows == [.init(start: 2000, end: 2300)])
    }

    @Test func orderIsKeptWhateverTheStall() {
        // The proxy applies the stalls to release times the shaper already put in order: the mapping must not
        // reorder them.
        var stalls = OnDemandStalls()
        stalls.stall(from: 100, durationMs: 50)
        stalls.stall(from: 400, durationMs: 120)
        let schedule = StallSchedule(periodMs: 500, durationMs: 100)
        let opens = stride(from: 0.0, through: 1200, by: 7.5).map {
            stalls.earliestOpen(atOrAfter: $0, with: schedule)
        }
        #expect(zip(opens, opens.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func aStallOnDemandAndAPeriodicOneChain() {
        // On demand [400, 520) runs into the periodic window [500, 600): held until 600. A periodic window's end
        // inside an on-demand one is held to the latter's end.
        var stalls = OnDemandStalls()
        stalls.stall(from: 400, durationMs: 120)
        stalls.stall(from: 1050, durationMs: 100)
        let schedule = StallSchedule(periodMs: 500, durationMs: 100)
        #expect(stalls.earliestOpen(atOrAfter: 450, with: schedule) == 600)
        #expect(stalls.earliestOpen(atOrAfter: 1020, with: schedule) == 1150)
        #expect(stalls.earliestOpen(atOrAfter: 700, with: schedule) == 700)
    }
}
