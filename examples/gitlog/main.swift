// The repository's own `git log` as the list's feed, served by RefreshKit's server (README, "In your own server"):
//
//     swift run refreshkit-gitlog --port 8080 --repo .     (or `make run-gitlog`)
import Foundation
import RefreshServer

var configuration = ServerConfiguration()
var repository = "."
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    guard let value = arguments.popFirst() else { break }
    switch name {
    case "--host": configuration.host = value
    case "--port": configuration.port = Int(value) ?? configuration.port
    case "--web-root": configuration.webRoot = value
    case "--repo": repository = value
    default: FileHandle.standardError.write(Data("unknown option \(name)\n".utf8))
    }
}

let server = Server(configuration: configuration, source: GitLogSource(repository: repository))
do {
    try server.run()
} catch {
    FileHandle.standardError.write(Data("refreshkit-gitlog: \(error)\n".utf8))
    exit(1)
}
