import Testing

@testable import RefreshServer

@Suite("ControlsFolder")
struct ControlsFolderTests {
    let folder = ControlsFolder(root: "/srv/controls")

    /// A fake file system: the folder holds bubbles.js; `escape.js` points outside it.
    static func resolve(_ path: String) -> String? {
        [
            "/srv/controls/bubbles.js": "/srv/controls/bubbles.js",
            "/srv/controls/escape.js": "/etc/passwd",
            "/srv/controls/my_control-2.js": "/srv/controls/my_control-2.js",
        ][path]
    }

    @Test(arguments: ["/controls/bubbles.js", "/controls/my_control-2.js"])
    func served(path: String) {
        #expect(folder.decide(path: path, resolve: Self.resolve) == .serve)
    }

    @Test(arguments: [
        "/controls/escape.js", "/controls/missing.js", "/controls/notes.txt", "/controls/sub/x.js", "/controls/",
        "/controls/.js", "/controls/a.b.js", "/controls/" + String(repeating: "a", count: 65) + ".js",
    ])
    func refused(path: String) {
        guard case .refuse(let status, _) = folder.decide(path: path, resolve: Self.resolve) else {
            Issue.record("\(path) was served")
            return
        }
        #expect(status == 404)
    }

    @Test func withoutAFolderNothingIsServedAndTheListIsEmpty() {
        let none = ControlsFolder(root: nil)
        #expect(none.decide(path: "/controls/bubbles.js", resolve: Self.resolve) != .serve)
        #expect(none.names() == [])
        #expect(ControlsFolder.indexJSON([]) == #"{"controls":[]}"#)
    }

    @Test func names() {
        #expect(ControlsFolder.controlName(inPath: "/controls/yahoo.js") == "yahoo")
        #expect(ControlsFolder.controlName(inPath: "/controls/ya hoo.js") == nil)
        #expect(ControlsFolder.controlName(inPath: "/yahoo.js") == nil)
        #expect(ControlsFolder.indexJSON(["bubbles", "yahoo"]) == #"{"controls":["bubbles","yahoo"]}"#)
    }

    @Test func theIndexIsAnsweredByTheServer() {
        let endpoints = HTTPEndpoints()
        let response = endpoints.respond(
            to: .init(path: ControlsFolder.indexPath), controls: { ["bubbles"] })
        #expect(response?.status == 200)
        #expect(response?.contentType == "application/json")
        #expect(response?.body == #"{"controls":["bubbles"]}"#)
    }
}
