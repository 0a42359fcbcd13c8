import Testing

@testable import RefreshServer

@Suite struct DescriptorsTests {
    @Test(arguments: [
        (256, 256, 192), (1024, 1024, 768), (20_000, 20_000, 19_744), (40, 40, 24), (8, 8, 4),
        (Int.max, 1 << 20, (1 << 20) - 256),
    ])
    func aLittleIsKeptForEverythingButConnections(hard: Int, limit: Int, table: Int) {
        let split = Descriptors(hard: hard)
        #expect(split.limit == limit && split.table == table)
    }
}
