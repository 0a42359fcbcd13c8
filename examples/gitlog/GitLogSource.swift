import Foundation
import RefreshFeeds
import RefreshKit

/// A repository's commits as a feed, newest first: a commit's id is its hash (the cursor too), its title the
/// subject, its text the body, with git's author and date. It follows first parents only, so that every page
/// continues the one line the first page began.
struct GitLogSource: FeedSource {
    let repository: String

    var address: String { "git:\(repository)" }

    func load(_ request: FeedRequest) throws(FeedError) -> FeedPage {
        let more = "-n\(request.limit + 1)"
        var commits: [FeedItem]
        switch request.position {
        case .around: throw .unsupported("load a page around a commit")
        case .newest: commits = try log([more, "HEAD"])
        case .olderThan(let cursor): commits = try log([more, "--skip=1", try hash(cursor)])
        case .newerThan(let cursor): commits = Array(try log(["\(try hash(cursor))..HEAD"]).suffix(request.limit + 1))
        }
        let hasMore = commits.count > request.limit
        if hasMore {
            if case .newerThan = request.position { commits.removeFirst() } else { commits.removeLast() }
        }
        return FeedPage(
            items: commits, olderCursor: commits.last.map { FeedCursor($0.id) },
            newerCursor: commits.first.map { FeedCursor($0.id) }, hasMore: hasMore)
    }

    /// A cursor is a commit hash: anything else is refused before git sees it.
    private func hash(_ cursor: FeedCursor) throws(FeedError) -> String {
        guard !cursor.value.isEmpty, cursor.value.allSatisfy(\.isHexDigit) else { throw .badCursor(cursor.value) }
        return cursor.value
    }

    /// `git log --first-parent` with `arguments`, one item per commit.
    private func log(_ arguments: [String]) throws(FeedError) -> [FeedItem] {
        let git = Process()
        let output = Pipe()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments =
            ["git", "-C", repository, "log", "--first-parent", "--format=%H%x1f%an%x1f%at%x1f%s%x1f%b%x1e"]
            + arguments
        git.standardOutput = output
        git.standardError = FileHandle.nullDevice
        do { try git.run() } catch { throw .unavailable("git could not be started: \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        git.waitUntilExit()
        guard git.terminationStatus == 0 else { throw .unavailable("git log failed in \(repository)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\u{1e}").compactMap { record in
            let field = record.trimmingCharacters(in: .newlines).split(
                separator: "\u{1f}", omittingEmptySubsequences: false)
            guard field.count == 5, let seconds = Int64(field[2]) else { return nil }
            return FeedItem(
                id: String(field[0]), text: field[4].trimmingCharacters(in: .whitespacesAndNewlines),
                author: String(field[1]), timeMicros: seconds * 1_000_000, title: String(field[3]))
        }
    }
}
