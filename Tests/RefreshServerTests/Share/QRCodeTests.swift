import Testing

@testable import RefreshServer

@Suite("QR codes for the share link")
struct QRCodeTests {
    @Test func aLinkIsASquareSymbolWithItsThreeFinderPatterns() throws {
        let code = try #require(QRCode("http://192.168.1.23:8080/?s=0123456789abcdef0123456789abcdef"))
        #expect(code.size == 4 * code.version + 17)
        // ISO/IEC 18004 finder pattern: a 7×7 dark ring, a light ring, a 3×3 dark centre, at three corners
        for (top, left) in [(0, 0), (0, code.size - 7), (code.size - 7, 0)] {
            for row in 0..<7 {
                for column in 0..<7 {
                    let ring = max(abs(row - 3), abs(column - 3))
                    #expect(code.isDark(row: top + row, column: left + column) == (ring != 2), "at \(row), \(column)")
                }
            }
        }
        #expect(!code.isDark(row: -1, column: 0) && !code.isDark(row: 0, column: code.size))
    }

    @Test func longerTextNeedsALargerSymbol() throws {
        let short = try #require(QRCode("http://10.0.0.2:8080"))
        let long = try #require(QRCode("http://10.0.0.2:8080/?s=" + String(repeating: "f", count: 32)))
        #expect(short.version < long.version)
    }

    @Test func emptyAndOverlongTextsAreRefused() {
        #expect(QRCode("") == nil)
        #expect(QRCode(String(repeating: "a", count: QRCode.maxTextBytes + 1)) == nil)
        #expect(QRCode(String(repeating: "a", count: QRCode.maxTextBytes)) != nil)
    }

    @Test func theTerminalDrawingHasTwoModuleRowsPerLineInsideTheQuietZone() throws {
        let code = try #require(QRCode("http://10.0.0.2:8080"))
        let plain = TerminalQRCode(code, colors: false).lines
        let side = code.size + 2 * TerminalQRCode.quietZone
        #expect(plain.count == (side + 1) / 2)
        #expect(plain.allSatisfy { $0.count == side })
        #expect(plain[0] == String(repeating: "\u{2588}", count: side), "the quiet zone is light: drawn")
        // the top left finder's first row (dark, 7 modules) sits under two light zone rows: line 2, columns 4…10
        let line = Array(plain[2])
        #expect(line[4...10].allSatisfy { $0 == "\u{2584}" || $0 == " " })

        let colored = TerminalQRCode(code, colors: true).lines
        #expect(colored.count == plain.count)
        #expect(colored.allSatisfy { $0.hasPrefix("\u{1B}[30;47m") && $0.hasSuffix("\u{1B}[0m") })
        #expect(colored[0].contains(" ") && !colored[0].contains("\u{2588}"), "on white, light modules are blank")
    }
}
