import Foundation
import Logging
import RefreshFeeds
import RefreshKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening the server's feed source at start (`serve --feed`), so a source that cannot work stops the server
/// with one clear line instead of failing every session later: a bad address, a missing folder, a file that
/// is a folder or cannot be read, a file that is not a feed database, a file locked by another program.
/// A read-only SQLite file is served (its pages can be read) and logged once: posts to it are refused (409).
enum FeedStart {
    /// The source `address` names, opened (a missing SQLite file is created and filled, docs/FEEDS.md); nil for
    /// `simulated`, which the engine runs itself.
    static func open(_ address: String, limits: FeedLimits, logger: Logger) throws(ServerError) -> (any FeedSource)? {
        let parsed: FeedAddress
        do throws(FeedError) {
            parsed = try FeedAddress(parsing: address)
        } catch {
            throw .feedFailed(address: address, reason: error.description)
        }
        if case .simulated = parsed { return nil }
        if case .sqlite(let path) = parsed { try check(file: path, address: address) }
        do throws(FeedError) {
            let source = try parsed.open(limits: limits, nowMicros: FeedService.nowMicros())
            if let sqlite = source as? SQLiteFeed {
                let count = (try? sqlite.count()).map(String.init) ?? "?"
                logger.info("feed opened", metadata: ["feed": "\(address)", "items": "\(count)"])
                if sqlite.isReadOnly {
                    logger.warning(
                        "the feed file is read-only: its pages are served, posts to it are refused",
                        metadata: ["feed": "\(address)"])
                }
            } else if let web = source as? WebFeedSource {
                // What the address serves, said once at start; a feed that cannot be read now is no reason not to
                // start (it may be back by the first request), so that is a warning.
                do throws(FeedError) {
                    let (format, entries) = try web.probe()
                    logger.info(
                        "feed opened",
                        metadata: [
                            "feed": "\(address)", "format": "\(format.map(String.init(describing:)) ?? "?")",
                            "entries": "\(entries)",
                        ])
                } catch {
                    logger.warning(
                        "the feed could not be read at start; its requests will say why",
                        metadata: ["feed": "\(address)", "error": "\(error)"])
                }
            } else {
                logger.info("feed opened", metadata: ["feed": "\(address)"])
            }
            return source
        } catch {
            throw .feedFailed(address: address, reason: error.description)
        }
    }

    /// Whether posts can be written to the SQLite file at `path`: it is missing (it will be created) or
    /// writable, as ``SQLiteFeed`` judges it.
    static func mayWrite(_ path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return true }
        let permissions =
            (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int ?? 0
        return access(path, W_OK) == 0 && permissions & 0o222 != 0
    }

    /// What SQLite would report less clearly: the path is a folder, or the file's permissions forbid reading.
    private static func check(file path: String, address: String) throws(ServerError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }  // created
        if isFolder.boolValue {
            throw .feedFailed(address: address, reason: "\(path) is a folder, not a SQLite file")
        }
        let permissions =
            (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int ?? 0o444
        if access(path, R_OK) != 0 || permissions & 0o444 == 0 {
            throw .feedFailed(address: address, reason: "\(path) cannot be read (check its permissions)")
        }
    }
}
