import Testing

@testable import RefreshServer

@Suite("StaticPathPolicy")
struct StaticPathPolicyTests {
    let policy = StaticPathPolicy(root: "/srv/web/")

    /// A fake file system: `web/` holds index.html and js/app.js; `link.txt` points outside, `alias.txt`
    /// inside, `dir` is a symlink to /etc.
    static func resolve(_ path: String) -> String? {
        [
            "/srv/web/index.html": "/srv/web/index.html",
            "/srv/web/js/app.js": "/srv/web/js/app.js",
            "/srv/web/link.txt": "/srv/secret.txt",
            "/srv/web/alias.txt": "/srv/web/js/app.js",
            "/srv/web/dir/passwd": "/etc/passwd",
            "/srv/web/webby/x": "/srv/webby/x",
        ][path]
    }

    func decide(_ path: String, body: Bool = false) -> StaticPathPolicy.Decision {
        policy.decide(path: Array(path.utf8), hasBody: body, resolve: Self.resolve)
    }

    @Test(arguments: ["/", "/index.html", "/js/app.js", "/alias.txt", "/missing.js", "/js/"])
    func served(path: String) {
        #expect(decide(path) == .serve)
    }

    @Test func symlinksOutOfTheRootAreNotFound() {
        for path in ["/link.txt", "/dir/passwd", "/webby/x"] {
            #expect(decide(path) == .refuse(status: 404, reason: "resolves outside the web root"), "\(path)")
        }
    }

    @Test func nulBytesAndControlCharactersAreBadRequests() {
        #expect(
            policy.decide(
                path: Array("/index.html".utf8) + [0] + Array(".js".utf8), hasBody: false, resolve: Self.resolve)
                == .refuse(status: 400, reason: "NUL byte in the path"))
        #expect(
            decide("/index\u{01}.html") == .refuse(status: 400, reason: "control character or backslash in the path"))
        #expect(decide("/..\\secret") == .refuse(status: 400, reason: "control character or backslash in the path"))
    }

    @Test func leftoverDotDotAndRelativePathsAreBadRequests() {
        #expect(decide("/js/../../secret") == .refuse(status: 400, reason: "'..' in the path"))
        #expect(decide("js/app.js") == .refuse(status: 400, reason: "not an absolute path"))
        #expect(decide("/...") == .serve)  // a file name, not a parent reference
    }

    @Test func invalidUTF8IsABadRequest() {
        #expect(
            policy.decide(path: [0x2F, 0xC0, 0xAE], hasBody: false, resolve: Self.resolve)
                == .refuse(status: 400, reason: "the path is not UTF-8"))
    }

    @Test func requestsWithABodyAreRefused() {
        #expect(decide("/index.html", body: true) == .refuse(status: 405, reason: "only GET and HEAD are served"))
    }
}
