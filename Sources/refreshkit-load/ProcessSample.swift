#if canImport(Glibc)
    import Glibc
#endif

/// CPU time and memory of a process, read from its CPU-time clock and /proc (Linux); and, beside them, this
/// process's own CPU time and the machine's steal time, which a report puts next to a process's figures.
struct ProcessSample {
    /// The CPU time of every thread, seconds, to the nanosecond: the process's CPU-time clock
    /// (`clock_getcpuclockid`), the kernel's sum of the time its threads ran. /proc's utime + stime hold the
    /// same sum cut to whole clock ticks (10 ms): at 100 sessions a 5 s window measures some 25 ticks of the
    /// server, so that a round's CPU per input was off by up to a tick (4 %), and a ratio of two rounds by up
    /// to 8 %. (The ticks when the clock cannot be read.)
    var cpuSeconds: Double
    /// stime alone (time in the kernel: syscalls, the network stack), in clock ticks: the kernel splits the
    /// precise sum between user and kernel by the ticks it sampled in each, so this part is only as fine as those.
    var systemSeconds: Double
    /// Resident set size now and at its peak, bytes.
    var rssBytes: Int
    var peakRSSBytes: Int
    var threads: Int

    static func read(pid: Int32) -> ProcessSample? {
        guard let stat = readFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after "comm)": state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 17, let user = Double(fields[11]), let system = Double(fields[12]),
            let threads = Int(fields[17])
        else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var rss = 0
        var peak = 0
        if let status = readFile("/proc/\(pid)/status") {
            for line in status.split(separator: "\n") {
                if line.hasPrefix("VmRSS:") { rss = kilobytes(line) * 1024 }
                if line.hasPrefix("VmHWM:") { peak = kilobytes(line) * 1024 }
            }
        }
        return ProcessSample(
            cpuSeconds: cpuClockSeconds(pid: pid) ?? (user + system) / ticks, systemSeconds: system / ticks,
            rssBytes: rss, peakRSSBytes: peak, threads: threads)
    }

    /// The CPU time of every thread of `pid` so far, from its CPU-time clock; nil if it cannot be read.
    static func cpuClockSeconds(pid: Int32) -> Double? {
        var clock = clockid_t()
        var time = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &time) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// This process's own CPU time (getrusage), seconds.
    static func selfCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The machine's steal time so far, seconds summed over its CPUs (/proc/stat's `steal`, in clock ticks): the
    /// time a hypervisor ran something else while this virtual machine had work to do. A round that lost the CPU
    /// so shows it in its tail, whatever the server does; nil when /proc/stat has no such field.
    static func hostStealSeconds() -> Double? {
        guard let stat = readFile("/proc/stat"), let line = stat.split(separator: "\n").first,
            line.hasPrefix("cpu ")
        else { return nil }
        // "cpu  user nice system idle iowait irq softirq steal …": steal is the 8th number.
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 8, let steal = Double(fields[8]) else { return nil }
        return steal / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func kilobytes(_ line: Substring) -> Int {
        Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
    }

    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
