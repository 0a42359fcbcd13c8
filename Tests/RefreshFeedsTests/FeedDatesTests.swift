import Testing

@testable import RefreshFeeds

/// The date forms feeds write (docs/FEEDS.md, "Reading feeds: dates"), each against the instant it names.
@Suite("Feed dates")
struct FeedDatesTests {
    /// 2002-10-02T13:00:00Z, seconds since 1970.
    static let noon: Int64 = 1_033_563_600

    static let rfc822Cases: [(String, Int64)] = [
        ("Wed, 02 Oct 2002 13:00:00 GMT", 0), ("Wed, 02 Oct 2002 13:00:00 UT", 0),
        ("Wed, 02 Oct 2002 13:00:00 UTC", 0), ("Wed, 02 Oct 2002 13:00:00 Z", 0),
        ("Wed, 02 Oct 2002 08:00:00 EST", 0), ("Wed, 02 Oct 2002 09:00:00 EDT", 0),
        ("Wed, 02 Oct 2002 07:00:00 CST", 0), ("Wed, 02 Oct 2002 08:00:00 CDT", 0),
        ("Wed, 02 Oct 2002 06:00:00 MST", 0), ("Wed, 02 Oct 2002 07:00:00 MDT", 0),
        ("Wed, 02 Oct 2002 05:00:00 PST", 0), ("Wed, 02 Oct 2002 06:00:00 PDT", 0),
        ("Wed, 02 Oct 2002 18:30:00 +0530", 0), ("Wed, 02 Oct 2002 05:00:00 -0800", 0),
        ("Wed, 02 Oct 2002 18:45:00 +05:45", 0), ("Wed, 02 Oct 2002 13:00:00 GMT+01:00", -3_600),
        ("02 Oct 2002 13:00:00 GMT", 0), ("Wed, 02 Oct 2002 13:00 GMT", 0), ("Wed, 02 Oct 02 13:00:00 GMT", 0),
        ("Wed, 2 Oct 2002 13:00:00 +0000", 0), ("Wed, 02 Oct 2002 13:00:00", 0),
        ("Wednesday, 02 October 2002 13:00:00 GMT", 0), ("Oct 02 2002 13:00:00 GMT", 0),
        ("wed, 02 oct 2002 13:00:00 gmt", 0), ("  Wed, 02 Oct 2002 13:00:00 GMT\n", 0),
        ("02 Oct 2002", -46_800),
        // RFC 822's military zones, with the signs RFC 822 gives them.
        ("Wed, 02 Oct 2002 13:00:00 A", 3_600), ("Wed, 02 Oct 2002 13:00:00 N", -3_600),
        ("Wed, 02 Oct 2002 13:00:00 M", 43_200), ("Wed, 02 Oct 2002 13:00:00 Y", -43_200),
        ("Wed, 02 Oct 2002 13:00:00 I", 32_400), ("Wed, 02 Oct 2002 13:00:00 K", 36_000),
    ]

    @Test("RFC 822 and RFC 1123 in the forms feeds use", arguments: rfc822Cases)
    func rfc822(text: String, shift: Int64) {
        #expect(FeedDates.micros(text) == (Self.noon + shift) * 1_000_000, "\(text)")
    }

    static let iso8601Cases: [(String, Int64)] = [
        ("2002-10-02T13:00:00Z", 0), ("2002-10-02T13:00:00z", 0), ("2002-10-02T15:00:00+02:00", 0),
        ("2002-10-02T15:00:00+0200", 0), ("2002-10-02T08:00:00-05", 0), ("2002-10-02 13:00:00Z", 0),
        ("2002-10-02T13:00:00", 0), ("2002-10-02T13:00Z", 0), ("20021002T130000Z", 0),
        ("2002-10-02", -46_800), ("2002-10", -46_800 - 86_400), ("2002", -(274 * 86_400) - 46_800),
    ]

    @Test("ISO 8601, RFC 3339 and W3C-DTF", arguments: iso8601Cases)
    func iso8601(text: String, shift: Int64) {
        #expect(FeedDates.micros(text) == (Self.noon + shift) * 1_000_000, "\(text)")
    }

    @Test("fractions of a second, years 1999 and 2000, 29 February")
    func details() {
        #expect(FeedDates.micros("2002-10-02T13:00:00.123456789Z") == Self.noon * 1_000_000 + 123_456)
        #expect(FeedDates.micros("2002-10-02T13:00:00,5Z") == Self.noon * 1_000_000 + 500_000)
        #expect(FeedDates.micros("Fri, 31 Dec 99 23:59:59 GMT") == 946_684_799_000_000)
        #expect(FeedDates.micros("Sat, 01 Jan 00 00:00:00 GMT") == 946_684_800_000_000)
        #expect(FeedDates.micros("Thu, 29 Feb 2024 00:00:00 GMT") == 1_709_164_800_000_000)
    }

    static let notDateCases: [String] = [
        "", "   ", "yesterday", "sometime last spring", "Fri, 29 Feb 2023 12:00:00 GMT", "2002-13-01",
        "2002-02-30T00:00:00Z", "2002-10-02T25:00:00Z", "2002-10-02T13:00:00Zjunk", "Wed, 32 Oct 2002",
        "Wed, 02 Foo 2002 13:00:00 GMT", "Wed, 02 Oct 2002 13h00 GMT", "Wed, 02 Oct 2002 13:00:00 +05x",
    ]

    @Test("what is no date is nil, never a guess", arguments: notDateCases)
    func notDates(text: String) {
        #expect(FeedDates.micros(text) == nil, "\(text)")
    }
}
