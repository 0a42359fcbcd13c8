import Foundation
import Logging
import RefreshFeeds
import RefreshHosting
import RefreshKit
import RefreshThreads

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
    /// The source the server serves, as the host driver takes it: the app's own `appSource` (`custom`), else the
    /// one `configuration.feed` names, opened (nil: the simulated feed).
    static func hosted(
        _ configuration: ServerConfiguration, appSource: (any FeedSource)?, policy: FetchPolicy, logger: Logger
    ) throws(ServerError) -> HostedSource? {
        let poll = configuration.feedPollMilliseconds
        if let appSource {
            logger.info("feed opened", metadata: ["feed": "\(appSource.address)", "kind": "custom"])
            return HostedSource(appSource, postable: appSource is any PostableFeedSource, pollMilliseconds: poll)
        }
        guard let source = try open(configuration.feed, limits: FeedLimits(), policy: policy, logger: logger) else {
            return nil
        }
        switch try? FeedAddress(parsing: configuration.feed) {
        case .sqlite(let path):
            return HostedSource(source, kind: .sqlite, postable: mayWrite(path), pollMilliseconds: poll)
        case .jsonFeed:
            return HostedSource(source, kind: .jsonfeed, pollMilliseconds: poll)
        case .web, .simulated, nil:
            return HostedSource(source, kind: .feed, pollMilliseconds: poll)
        }
    }

    /// The source `address` names, opened (a missing SQLite file is created and filled, docs/FEEDS.md); nil for
    /// `simulated`, which the engine runs itself. A web source connects where `policy` allows and to its own host,
    /// and the whole reason of each failed fetch is logged (``logFailures(of:address:logger:)``).
    static func open(
        _ address: String, limits: FeedLimits, policy: FetchPolicy, logger: Logger
    ) throws(ServerError) -> (any FeedSource)? {
        let parsed: FeedAddress
        do throws(FeedError) {
            parsed = try FeedAddress(parsing: address)
        } catch {
            throw .feedFailed(address: address, reason: error.description)
        }
        if case .simulated = parsed { return nil }
        if case .sqlite(let path) = parsed { try check(file: path, address: address) }
        do throws(FeedError) {
            let source = try parsed.open(limits: limits, policy: policy, nowMicros: FeedService.nowMicros())
            if let sqlite = source as? SQLiteFeed {
                let count = (try? sqlite.count()).map(String.init) ?? "?"
                logger.info("feed opened", metadata: ["feed": "\(address)", "items": "\(count)"])
                if sqlite.isReadOnly {
                    logger.warning(
                        "the feed file is read-only: its pages are served, posts to it are refused",
                        metadata: ["feed": "\(address)"])
                }
            } else if let web = source as? WebFeedSource {
                logFailures(of: web, address: address, logger: logger)
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

    /// The whole reason of each failed fetch, which the pages are told in short (docs/FEEDS.md, "What is fetched,
    /// and what is refused"): a notice, at most one a second per code (the rest counted in the next one's
    /// `suppressed`), as the refusals are logged.
    private static func logFailures(of web: WebFeedSource, address: String, logger: Logger) {
        let throttle = LockedValue(LogThrottle())  // the loads' worker and the poll's both report
        web.reportFailures { url, reason in
            let key = "feed-fetch-\(reason.code)"
            guard let suppressed = throttle.withLock({ $0.allow(key) ? $0.takeSuppressed(key) : nil }) else { return }
            logger.notice(
                "feed fetch failed",
                metadata: [
                    "feed": "\(address)", "url": "\(Gatekeeper.shorten(url))", "code": "\(reason.code)",
                    "reason": "\(reason)", "suppressed": "\(suppressed)",
                ])
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
