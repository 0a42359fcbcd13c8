import CSQLite
import Foundation
import RefreshKit

/// One connection to a SQLite file through Debian's libsqlite3, with SQLite's result codes turned into
/// `FeedError`s: busy means `FeedError/locked(path:)`, read-only `FeedError/readOnly(path:)`, not a
/// database `FeedError/malformed(_:)`.
///
/// Opened in serialized mode (`SQLITE_OPEN_FULLMUTEX`), so SQLite itself makes calls from several threads
/// safe; that is why it is `@unchecked Sendable`.
final class SQLiteConnection: @unchecked Sendable {
    let path: String
    private let handle: OpaquePointer

    /// Opens `path`; `create` makes the file when it is missing, `readOnly` never writes.
    init(path: String, create: Bool, readOnly: Bool, busyTimeoutMs: Int) throws(FeedError) {
        self.path = path
        var flags = SQLITE_OPEN_FULLMUTEX
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(opened)
            throw code == SQLITE_CANTOPEN ? .missing(path: path) : .unavailable("cannot open \(path): \(message)")
        }
        handle = opened
        sqlite3_busy_timeout(handle, Int32(clamping: busyTimeoutMs))
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (one or more statements without parameters).
    func execute(_ sql: String) throws(FeedError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Prepares `sql`, binds `values` (Int64, String or nil) to its parameters in order, and calls `row` for
    /// each row of the result.
    func query(_ sql: String, _ values: [SQLiteValue], row: (SQLiteRow) -> Void = { _ in }) throws(FeedError) {
        var prepared: OpaquePointer?
        var code = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let statement = prepared else { throw error(code) }
        defer { sqlite3_finalize(statement) }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, refreshkit_sqlite_transient())
            case .null: sqlite3_bind_null(statement, position)
            }
        }
        while true {
            code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            row(SQLiteRow(statement: statement))
        }
    }

    /// The row id of the last row inserted on this connection.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// `code` (and SQLite's message) as the error a person reads.
    func error(_ code: Int32) -> FeedError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path)
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_NOTADB: return .malformed("\(path) is not a SQLite database")
        case SQLITE_CORRUPT: return .malformed("\(path) is damaged (\(message))")
        case SQLITE_CANTOPEN: return .missing(path: path)
        default: return .unavailable("SQLite error \(code) on \(path): \(message)")
        }
    }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case null
}

/// The current row of a statement being stepped; valid only inside the `row` closure.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    /// Column `index` as an integer (0 when NULL).
    func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    /// Column `index` as text, `nil` when NULL.
    func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, index)
        else { return nil }
        return String(cString: bytes)
    }

    /// Column `index` as an integer, `nil` when NULL.
    func optionalInteger(_ index: Int32) -> Int? {
        sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, index))
    }
}

extension SQLiteValue: Equatable {}
