#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which HTTP requests may reach the static-file mount: only `GET`/`HEAD` of a file that really lies under
/// the web root. lws already decodes `%xx` and folds `.`/`..` segments before the mount sees the path;
/// this adds what it does not do:
///
/// - a NUL byte anywhere in the decoded path (`/index.html%00.js`) is refused (400);
/// - a path whose real location (symlinks resolved) is outside the web root is refused (404, and logged),
///   so a symlink in `web/` cannot publish `/etc/passwd`;
/// - a leftover `..` segment, a backslash or a control character is refused (400);
/// - a request with a body (`POST`) is refused (405): the mount serves files, nothing else.
struct StaticPathPolicy: Sendable, Equatable {
    enum Decision: Equatable, Sendable {
        case serve
        case refuse(status: Int32, reason: String)
    }

    /// The web root, absolute and with symlinks resolved (no trailing slash).
    let root: String
    /// The file served for a path ending in `/`.
    let indexFile: String

    init(root: String, indexFile: String = "index.html") {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.indexFile = indexFile
    }

    /// Judges a decoded request path (`bytes` is exactly what lws passed, NULs included).
    /// - Parameter resolve: `realpath`: the real absolute path of an existing file, nil when it does not
    ///   exist (injected so tests need no file system).
    func decide(path bytes: [UInt8], hasBody: Bool, resolve: (String) -> String?) -> Decision {
        if hasBody { return .refuse(status: 405, reason: "only GET and HEAD are served") }
        if bytes.contains(0) { return .refuse(status: 400, reason: "NUL byte in the path") }
        guard let path = String(validating: bytes, as: UTF8.self) else {
            return .refuse(status: 400, reason: "the path is not UTF-8")
        }
        guard path.hasPrefix("/") else { return .refuse(status: 400, reason: "not an absolute path") }
        if path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) {
            return .refuse(status: 400, reason: "control character or backslash in the path")
        }
        if path.split(separator: "/", omittingEmptySubsequences: true).contains("..") {
            return .refuse(status: 400, reason: "'..' in the path")
        }
        var candidate = root + path
        if path.hasSuffix("/") { candidate += indexFile }
        guard let real = resolve(candidate) else { return .serve }  // does not exist: lws answers 404
        guard real == root || real.hasPrefix(root + "/") else {
            return .refuse(status: 404, reason: "resolves outside the web root")
        }
        return .serve
    }

    /// `realpath(3)`, nil when the path does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
