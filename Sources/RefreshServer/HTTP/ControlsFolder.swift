import RefreshKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The user's own control modules (`serve --controls DIR`, docs/CONTROLS.md): DIR's `*.js` files are served at
/// `/controls/NAME.js` from the page's own origin, so the page's Content Security Policy (`script-src 'self'`)
/// lets it `import()` them, and `GET /controls/index.json` lists them as `{"controls":["NAME",...]}` (an empty
/// list without `--controls`).
///
/// Only a valid name is served (``ControlName/isValid(_:)``: 1 to 64 of `[A-Za-z0-9_-]`) followed by `.js`, a
/// regular file that really lies in DIR (symlinks resolved, as ``StaticPathPolicy`` does for the web root).
/// Anything else under `/controls/` (a sub-folder, another suffix, a `..`, an encoded slash) is refused with 404.
struct ControlsFolder: Sendable, Equatable {
    /// The folder, absolute and with symlinks resolved; nil without `--controls`.
    let root: String?

    static let prefix = "/controls/"
    static let indexPath = "/controls/index.json"
    /// The control a request path names (`/controls/NAME.js` → `NAME`), nil for any other path.
    static func controlName(inPath path: String) -> String? {
        guard path.hasPrefix(prefix), path.hasSuffix(".js") else { return nil }
        let name = path.dropFirst(prefix.count).dropLast(3)
        return ControlName.isValid(name) ? String(name) : nil
    }

    /// What to do with a request for `path` (under ``prefix``, not the index).
    /// - Parameter resolve: `realpath`: the real absolute path of an existing file, nil when it does not exist.
    func decide(path: String, resolve: (String) -> String?) -> StaticPathPolicy.Decision {
        guard let root else { return .refuse(status: 404, reason: "no --controls folder is served") }
        guard let name = Self.controlName(inPath: path) else {
            return .refuse(status: 404, reason: "a control is /controls/NAME.js, NAME of 1-64 [A-Za-z0-9_-]")
        }
        guard let real = resolve(root + "/" + name + ".js") else {
            return .refuse(status: 404, reason: "no such control")
        }
        guard real.hasPrefix(root + "/") else {
            return .refuse(status: 404, reason: "resolves outside the controls folder")
        }
        return .serve
    }

    /// `{"controls":[…]}` for `names` (already valid names: nothing to escape).
    static func indexJSON(_ names: [String]) -> String {
        "{\"controls\":[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
    }

    /// The controls in the folder now, sorted: every `NAME.js` with a valid name that resolves inside it.
    func names() -> [String] {
        guard let root, let directory = opendir(root) else { return [] }
        defer { closedir(directory) }
        var found: [String] = []
        while let entry = readdir(directory) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let name = Self.controlName(inPath: Self.prefix + file) else { continue }
            if case .serve = decide(path: Self.prefix + file, resolve: StaticPathPolicy.realPath) {
                found.append(name)
            }
        }
        return found.sorted()
    }
}
