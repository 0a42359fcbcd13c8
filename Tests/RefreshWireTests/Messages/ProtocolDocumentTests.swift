import Foundation
import RefreshKit
import RefreshWire
import Testing

/// The code and docs/PROTOCOL.md name the same things: its tables are read here and compared with the enums, so
/// a code added to one and not the other fails.
struct ProtocolDocumentTests {
    /// docs/PROTOCOL.md, found from this file's place in the repository.
    static let document: String = {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appending(path: "docs/PROTOCOL.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func theErrorTableIsErrorCode() throws {
        let table = try #require(MarkdownTable.first(withHeader: ["code", "when"], in: Self.document))
        // A row may name two codes: "`missing_field` / `bad_field`".
        let codes = table.rows.flatMap { MarkdownTable.quoted(in: $0[0]) }
        #expect(codes == ErrorCode.allCases.map(\.rawValue))
    }

    @Test func theCloseCodeTableIsCloseCode() throws {
        let table = try #require(MarkdownTable.first(withHeader: ["code", "when", "the page"], in: Self.document))
        let codes = table.rows.map { UInt16($0[0].filter(\.isNumber)) }
        #expect(codes == CloseCode.allCases.map(\.rawValue))
        // The fixed reason texts are the ones the table gives in brackets: [`server shutting down`].
        for (row, code) in zip(table.rows, CloseCode.allCases) {
            let reason = row[1].range(of: "[`").flatMap { start in
                row[1][start.upperBound...].range(of: "`]").map { String(row[1][start.upperBound..<$0.lowerBound]) }
            }
            #expect(reason == code.reason, "\(code)")
        }
    }

    @Test func theServerToPageTableIsServerMessage() throws {
        let table = try #require(MarkdownTable.first(withHeader: ["type", "fields"], in: Self.document))
        let types = table.rows.flatMap { MarkdownTable.quoted(in: $0[0]) }
        #expect(types == ServerMessage.Kind.allCases.map(\.rawValue))
    }

    @Test func everyEngineRefusalHasItsCode() {
        #expect(
            ListModelError.Reason.allCases.map(ErrorCode.init) == [
                .outOfRange, .unknownPreset, .badField, .badMessage, .unknownItem,
            ])
    }
}

/// A GitHub-flavoured Markdown table: its header cells and its rows' cells, trimmed.
struct MarkdownTable {
    var header: [String]
    var rows: [[String]]

    /// The first table of `text` whose header is `header`.
    static func first(withHeader header: [String], in text: String) -> MarkdownTable? {
        var table: MarkdownTable?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let cells = cells(of: line)
            if var found = table {
                guard let cells else { return found }
                if !cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) { found.rows.append(cells) }
                table = found
            } else if cells == header {
                table = MarkdownTable(header: header, rows: [])
            }
        }
        return table
    }

    /// The cells of a table line (`| a | b |`), or nil when the line is not one.
    private static func cells(of line: Substring) -> [String]? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("|"), trimmed.hasSuffix("|"), trimmed.count > 1 else { return nil }
        return trimmed.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The `code spans` of a cell, in order.
    static func quoted(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
