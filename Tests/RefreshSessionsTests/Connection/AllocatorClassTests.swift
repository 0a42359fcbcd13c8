import Testing

@testable import RefreshSessions

#if canImport(Glibc)
    // <malloc.h>, which Glibc's module leaves out
    @_silgen_name("malloc_usable_size") private func mallocUsableSize(_ block: UnsafeMutableRawPointer?) -> Int
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every connected page holds one session object and one connection, and the server's allocator (jemalloc) rounds
/// each up to its size class: a few bytes more than a class takes the next one, and every session pays its whole
/// step (docs/PERFORMANCE.md, "Memory per connected session"). The classes they fit now: 3 072 and 448 bytes.
@Suite struct AllocatorClassTests {
    /// The block the allocator gave `object`: in the test bundle, which links RefreshServer, jemalloc's size class;
    /// under a sanitizer (`make asan`, `make tsan`), the request itself.
    private static func blockSize(_ object: AnyObject) -> Int {
        let address = Unmanaged.passUnretained(object).toOpaque()
        #if canImport(Glibc)
            return mallocUsableSize(address)
        #else
            return malloc_size(address)
        #endif
    }

    @Test func aSessionAndItsConnectionFitTheirClasses() throws {
        let transport = TestTransport()
        let connection = transport.open()
        transport.send(TestTransport.hello(), on: connection)
        let session = try #require(connection.session)
        #expect(Self.blockSize(session) <= 3_072, "the session object outgrew jemalloc's 3 072 B class")
        #expect(Self.blockSize(connection) <= 448, "the connection outgrew jemalloc's 448 B class")
    }
}
