#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A socket call failed: which call, for which address, and errno's text.
public struct SocketError: Error, CustomStringConvertible {
    public let description: String

    init(_ call: String, _ address: LinkAddress? = nil, errno code: Int32 = errno) {
        let target = address.map { " \($0)" } ?? ""
        description = "\(call)\(target): \(String(cString: strerror(code)))"
    }

    init(message: String) { description = message }
}

/// The few socket calls the proxy makes, on raw descriptors (all non-blocking, close-on-exec).
enum Socket {
    /// Resolves `address` (numeric or a name such as `localhost`) to its first stream address.
    static func resolve(_ address: LinkAddress, passive: Bool) throws -> (
        family: Int32, storage: sockaddr_storage, length: socklen_t
    ) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = passive ? AI_PASSIVE : 0
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, let first = list else {
            throw SocketError(message: "cannot resolve \(address): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(
                from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        return (first.pointee.ai_family, storage, first.pointee.ai_addrlen)
    }

    static func make(family: Int32) throws -> Int32 {
        let fd = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        return fd
    }

    /// A listening socket on `address`; returns it and the port it got (the real one for port 0).
    static func listening(on address: LinkAddress) throws -> (fd: Int32, port: Int) {
        var (family, storage, length) = try resolve(address, passive: true)
        let fd = try make(family: family)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = SocketError("bind", address)
            close(fd)
            throw error
        }
        guard listen(fd, 128) == 0 else {
            let error = SocketError("listen", address)
            close(fd)
            throw error
        }
        return (fd, localPort(fd))
    }

    /// Starts a non-blocking connect; the caller waits for POLLOUT and then asks ``pendingError(_:)``.
    static func connecting(to address: LinkAddress) throws -> Int32 {
        var (family, storage, length) = try resolve(address, passive: false)
        let fd = try make(family: family)
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        if result != 0 && errno != EINPROGRESS {
            let error = SocketError("connect", address)
            close(fd)
            throw error
        }
        noDelay(fd)
        return fd
    }

    /// SO_ERROR: 0 once a connect succeeded.
    static func pendingError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        return code
    }

    /// O_NONBLOCK and FD_CLOEXEC on a descriptor from `accept` or `pipe`.
    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// The proxy writes each released chunk at once; Nagle's algorithm would add its own delay.
    static func noDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Closes with a reset (SO_LINGER 0), so the peer sees the connection fail as the other side's did.
    static func reset(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }

    static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return withUnsafeBytes(of: storage) { raw -> Int in
            // sin_port and sin6_port sit at the same offset, in network order.
            let port = raw.load(fromByteOffset: 2, as: UInt16.self)
            return Int(UInt16(bigEndian: port))
        }
    }

    /// An accepted peer's address as text (`10.0.0.9`, `fd00::9`; an IPv4 peer of an IPv6 listener as
    /// `::ffff:10.0.0.9`, which a server reads as the IPv4 address), `unknown` for another family.
    static func numericHost(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let family = Int32(storage.ss_family)
        guard family == AF_INET || family == AF_INET6 else { return "unknown" }
        let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard result == 0 else { return "unknown" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// CLOCK_MONOTONIC in ms.
    static func monotonicMs() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
    }
}
