/// The server's images, by address, least recently used forgotten first (docs/FEEDS.md, "Images"): at most
/// `maxCount` images and `maxBytes` bytes in all. A pure value, confined to the service thread.
///
/// Each image has a use stamp; the oldest is found by a scan when one must go (O(n), n ≤ ``ImageLimits/cacheCount``,
/// and only when the cache is full: a fetch, never a hit, pays for it).
struct ImageCache: Sendable {
    /// An image kept: its bytes, its kind, and its entity tag.
    struct Image: Sendable, Equatable {
        var bytes: [UInt8]
        var kind: ImageKind
        /// `"<FNV-1a 64 of the bytes, hex>-<length, hex>"`, quoted as HTTP writes it.
        var etag: String

        init(bytes: [UInt8], kind: ImageKind) {
            self.bytes = bytes
            self.kind = kind
            etag = Self.tag(bytes)
        }

        /// FNV-1a, 64 bits (Fowler, Noll, Vo; the offset basis and prime of draft-eastlake-fnv, 6.1.2).
        static func tag(_ bytes: [UInt8]) -> String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return "\"\(String(hash, radix: 16))-\(String(bytes.count, radix: 16))\""
        }
    }

    let maxCount: Int
    let maxBytes: Int
    private var images: [String: (image: Image, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    /// The bytes held.
    private(set) var bytes = 0
    /// Lookups answered and missed, images forgotten to make room (for the log and the tests).
    private(set) var hits = 0
    private(set) var misses = 0
    private(set) var evictions = 0

    init(maxCount: Int, maxBytes: Int) {
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    /// Images held.
    var count: Int { images.count }

    /// The image at `url` (now the most recently used), or nil.
    mutating func image(at url: String) -> Image? {
        guard let entry = images[url] else {
            misses += 1
            return nil
        }
        hits += 1
        clock += 1
        images[url] = (entry.image, clock)
        return entry.image
    }

    /// Keeps `image` for `url`, forgetting the least recently used ones until both limits hold. An image larger
    /// than the whole cache is not kept.
    mutating func keep(_ image: Image, at url: String) {
        if let old = images.removeValue(forKey: url) { bytes -= old.image.bytes.count }
        guard image.bytes.count <= maxBytes, maxCount > 0 else { return }
        while images.count >= maxCount || bytes + image.bytes.count > maxBytes,
            let oldest = images.min(by: { $0.value.used < $1.value.used })
        {
            images[oldest.key] = nil
            bytes -= oldest.value.image.bytes.count
            evictions += 1
        }
        clock += 1
        images[url] = (image, clock)
        bytes += image.bytes.count
    }
}
