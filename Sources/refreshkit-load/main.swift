import Foundation

// refreshkit-load: N WebSocket sessions on loopback, each dragging at a fixed rate; measures the time from
// sending an input to receiving the frame that reflects it (or, against lws-echo, its echo). One JSON
// object on stdout; progress and problems on stderr. Bounded: an alarm ends the process if anything hangs.

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("refreshkit-load: \(error.description)\n".utf8))
    exit(2)
}
signal(SIGPIPE, SIG_IGN)
alarm(UInt32(options.connectTimeout + options.warmup + options.duration + 30))

let generator = LoadGenerator(options: options)
let ok = generator.run()
print(Report(generator).json())
if let failure = generator.failure { generator.log(failure) }
exit(ok ? 0 : 1)
