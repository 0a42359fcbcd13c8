import Testing

@testable import LinkSimulator

@Suite("StallSchedule")
struct StallScheduleTests {
    let schedule = StallSchedule(periodMs: 2000, durationMs: 204.8)

    @Test func theLinkIsOpenBeforeTheFirstPeriodAndBetweenStalls() {
        #expect(schedule.earliestOpen(atOrAfter: 0) == 0)
        #expect(schedule.earliestOpen(atOrAfter: 1999.9) == 1999.9)
        #expect(schedule.earliestOpen(atOrAfter: 2204.8) == 2204.8)
        #expect(schedule.earliestOpen(atOrAfter: 3000) == 3000)
    }

    @Test func insideAStallTheLinkOpensAtItsEnd() {
        #expect(schedule.earliestOpen(atOrAfter: 2000) == 2204.8)
        #expect(schedule.earliestOpen(atOrAfter: 2100) == 2204.8)
        #expect(schedule.earliestOpen(atOrAfter: 6150) == 6204.8)
    }

    @Test func windowsAreListedInOrder() {
        let windows = schedule.windows(from: 0, to: 6001)
        #expect(windows.map(\.start) == [2000, 4000, 6000])
        #expect(windows.map(\.end) == [2204.8, 4204.8, 6204.8])
        #expect(schedule.windows(from: 2001, to: 3999).isEmpty)
    }

    @Test func noPeriodOrNoDurationMeansNoStalls() {
        for idle in [StallSchedule(periodMs: 0, durationMs: 100), StallSchedule(periodMs: 1000, durationMs: 0)] {
            #expect(!idle.isActive)
            #expect(idle.earliestOpen(atOrAfter: 1000) == 1000)
            #expect(idle.windows(from: 0, to: 10_000).isEmpty)
        }
    }
}
