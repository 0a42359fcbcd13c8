/// A feed's date text as µs since 1970 (UTC), in the forms feeds write (docs/FEEDS.md, "Reading feeds: dates"):
/// RFC 822/1123 (RSS's `pubDate`) and ISO 8601 / RFC 3339 / W3C-DTF (Atom, JSON Feed, `dc:date`).
///
/// Read by hand, byte by byte, and not with `DateFormatter`: a formatter follows the process's locale and time
/// zone unless every one of its settings is pinned, and Foundation's ISO 8601 formatter was too slow for a
/// 10 000-item feed (docs/FEEDS.md, "jsonfeed:URL"). A text that is no date is `nil`: the entry is undated,
/// never the feed malformed.
enum FeedDates {
    /// The time `text` names, or `nil` when it is no date in a form read here.
    static func micros(_ text: some StringProtocol) -> Int64? {
        let bytes = Array(text.utf8)
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        let trimmed = bytes[start..<end]
        // A date that opens with four digits is ISO 8601's order (year first); RFC 822 opens with a weekday or
        // the day of the month.
        if trimmed.count >= 4, trimmed.prefix(4).allSatisfy(isDigit) {
            return iso8601(trimmed)
        }
        return rfc822(trimmed)
    }

    // MARK: ISO 8601, RFC 3339, W3C-DTF

    /// `YYYY[-MM[-DD]][(T| )hh:mm[:ss[.fraction]]][Z|±hh:mm|±hhmm|±hh]`, and the basic form
    /// `YYYYMMDD[Thhmmss]`. No zone is UTC, as feedparser takes it.
    static func iso8601(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var scanner = ByteScanner(bytes)
        guard let year = scanner.digits(exactly: 4) else { return nil }
        var month: Int64 = 1
        var day: Int64 = 1
        if scanner.take("-") {
            guard let m = scanner.digits(exactly: 2) else { return nil }
            month = m
            if scanner.take("-") {
                guard let d = scanner.digits(exactly: 2) else { return nil }
                day = d
            }
        } else if let m = scanner.digits(exactly: 2) {
            guard let d = scanner.digits(exactly: 2) else { return nil }
            (month, day) = (m, d)
        }
        var clock = Clock()
        if scanner.take("T") || scanner.take("t") || scanner.take(" ") {
            guard let hour = scanner.digits(exactly: 2) else { return nil }
            clock.hour = hour
            let colons = scanner.take(":")
            if let minute = scanner.digits(exactly: 2) {
                clock.minute = minute
                if !colons || scanner.take(":"), let second = scanner.digits(exactly: 2) {
                    clock.second = second
                    clock.micros = scanner.fraction()
                }
            } else if colons {
                return nil
            }
        }
        var offset: Int64 = 0
        if scanner.take("Z") || scanner.take("z") {
            offset = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.digits(exactly: 2) else { return nil }
            _ = scanner.take(":")
            let minutes = scanner.digits(exactly: 2) ?? 0
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.atEnd else { return nil }
        return clock.micros(year: year, month: month, day: day, offsetSeconds: offset)
    }

    // MARK: RFC 822 and RFC 1123

    /// `[Wkd,] D Mon YY[YY] [hh:mm[:ss]] [zone]`, as feeds write it: a 2-digit year is 19YY from 90 on and 20YY
    /// below, the day and the month may be swapped, a missing time is midnight and a missing zone UTC.
    static func rfc822(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var parts = bytes.split(whereSeparator: { isSpace($0) || $0 == UInt8(ascii: ",") }).map {
            Array($0.map(lowercase))
        }
        if let first = parts.first, first.count >= 3, weekdays.contains(Array(first.prefix(3))) {
            parts.removeFirst()
        }
        guard parts.count >= 3 else { return nil }
        var day = number(parts[0])
        var month = monthNumber(parts[1])
        if day == nil, let swapped = monthNumber(parts[0]) {
            (day, month) = (number(parts[1]), swapped)
        }
        guard let day, let month, let year = number(parts[2]) else { return nil }
        let fullYear = parts[2].count <= 2 ? year + (year < 90 ? 2000 : 1900) : year
        var clock = Clock()
        if parts.count > 3 {
            let fields = parts[3].split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard (2...3).contains(fields.count), let hour = number(fields[0]), let minute = number(fields[1])
            else { return nil }
            (clock.hour, clock.minute) = (hour, minute)
            if fields.count == 3 {
                guard let second = number(fields[2]) else { return nil }
                clock.second = second
            }
        }
        let offset = parts.count > 4 ? zoneOffset(parts[4]) : 0
        guard let offset else { return nil }
        return clock.micros(year: fullYear, month: month, day: day, offsetSeconds: offset)
    }

    /// A zone's offset east of UTC, seconds: `+hhmm`/`-hhmm` (or `±hh:mm`), `GMT`, `UT`, `UTC`, `Z`, the US zones
    /// RFC 822 names and a few more, `GMT+hh:mm`, and RFC 822's military letters with the signs RFC 822 gives
    /// them. An unknown name is UTC, as feedparser takes it.
    static func zoneOffset(_ zone: [UInt8]) -> Int64? {
        var zone = ArraySlice(zone)
        if zone.starts(with: Array("etc/".utf8)) { zone = zone.dropFirst(4) }
        if zone.starts(with: Array("gmt".utf8)) || zone.starts(with: Array("utc".utf8)), zone.count > 3 {
            zone = zone.dropFirst(3)
        }
        var scanner = ByteScanner(zone)
        if let sign = scanner.sign() {
            guard let hours = scanner.digits(exactly: 2) else { return nil }
            _ = scanner.take(":")
            let minutes = scanner.digits(exactly: 2) ?? 0
            guard scanner.atEnd else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
        if zone.count == 1, let letter = zone.first, let hours = militaryHours(letter) { return hours * 3600 }
        return (namedZones[String(decoding: zone, as: UTF8.self)] ?? 0) * 3600
    }

    /// RFC 822 section 5's military zones as written there: A to I are −1 to −9, K to M −10 to −12, N to Y +1
    /// to +12, Z is UTC (J is not used).
    private static func militaryHours(_ letter: UInt8) -> Int64? {
        switch letter {
        case UInt8(ascii: "z"): 0
        case UInt8(ascii: "a")...UInt8(ascii: "i"): -Int64(letter - UInt8(ascii: "a") + 1)
        case UInt8(ascii: "k")...UInt8(ascii: "m"): -Int64(letter - UInt8(ascii: "k") + 10)
        case UInt8(ascii: "n")...UInt8(ascii: "y"): Int64(letter - UInt8(ascii: "n") + 1)
        default: nil
        }
    }

    /// Zone names and their offsets, hours: RFC 822's, plus the Atlantic and the short US names feeds use.
    private static let namedZones: [String: Int64] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "adt": -3, "ast": -4, "at": -4, "edt": -4, "est": -5, "et": -5,
        "cdt": -5, "cst": -6, "ct": -6, "mdt": -6, "mst": -7, "mt": -7, "pdt": -7, "pst": -8, "pt": -8,
        "met": 1, "mest": 2, "cet": 1, "cest": 2, "bst": 1,
    ]

    private static let weekdays: Set<[UInt8]> = Set(
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map { Array($0.utf8) })

    private static let months: [[UInt8]: Int64] = Dictionary(
        uniqueKeysWithValues: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
            .enumerated().map { (Array($1.utf8), Int64($0 + 1)) })

    private static func monthNumber(_ word: some Collection<UInt8>) -> Int64? {
        word.count >= 3 ? months[Array(word.prefix(3))] : nil
    }

    private static func number(_ digits: some Collection<UInt8>) -> Int64? {
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(isDigit) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int64($1 - 48) }
    }

    fileprivate static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || (9...13).contains(byte) }
    private static func lowercase(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar: Howard Hinnant's days_from_civil
    /// (docs/FEEDS.md, "jsonfeed:URL").
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A time of day; `micros(year:month:day:offsetSeconds:)` checks it with the date and makes the instant.
    private struct Clock {
        var hour: Int64 = 0
        var minute: Int64 = 0
        var second: Int64 = 0
        var micros: Int64 = 0

        func micros(year: Int64, month: Int64, day: Int64, offsetSeconds: Int64) -> Int64? {
            // A leap second (60) is taken as the next second, as a Unix clock shows it.
            guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24,
                minute < 60, second <= 60, (0...9999).contains(year)
            else { return nil }
            let seconds =
                FeedDates.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
                - offsetSeconds
            return seconds * 1_000_000 + micros
        }

        private func daysIn(month: Int64, year: Int64) -> Int64 {
            switch month {
            case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }
    }
}

/// Reads a date's bytes left to right.
private struct ByteScanner {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var atEnd: Bool { index == bytes.endIndex }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// `+1` or `-1` for a sign taken, `nil` when there is none.
    mutating func sign() -> Int64? {
        if take("+") { return 1 }
        if take("-") { return -1 }
        return nil
    }

    mutating func digits(exactly count: Int) -> Int64? {
        guard index + count <= bytes.endIndex, bytes[index..<index + count].allSatisfy(FeedDates.isDigit) else {
            return nil
        }
        defer { index += count }
        return bytes[index..<index + count].reduce(0) { $0 * 10 + Int64($1 - 48) }
    }

    /// A fraction of a second after `.` or `,`, as µs (digits past the sixth are dropped); 0 when there is none.
    mutating func fraction() -> Int64 {
        guard take(".") || take(",") else { return 0 }
        var micros: Int64 = 0
        var scale: Int64 = 100_000
        while index < bytes.endIndex, FeedDates.isDigit(bytes[index]) {
            micros += Int64(bytes[index] - 48) * scale
            scale /= 10
            index += 1
        }
        return micros
    }
}
