import Foundation

/// The image formats `GET /feed/image` serves, recognised from their media type and from their first bytes
/// (their "magic numbers"): an answer is served only when both say it is one of these.
///
/// The signatures: PNG `89 50 4E 47 0D 0A 1A 0A` (RFC 2083, 3.1); JPEG `FF D8 FF` (the SOI marker and the
/// next marker's first byte, ITU T.81, B.1.1.3); GIF `GIF87a`/`GIF89a` (GIF89a spec, 17); WebP `RIFF` size
/// `WEBP` (RFC 9649, 2.5); AVIF an ISO BMFF `ftyp` box at byte 4 whose brands include `avif` or `avis`
/// (AV1 Image File Format, 9.2; ISO/IEC 14496-12, 4.3).
enum ImageKind: String, Sendable, Hashable, CaseIterable {
    case png, jpeg, gif, webp, avif

    /// The media type served.
    var mediaType: String { "image/\(rawValue)" }

    /// The kind a `Content-Type` names (parameters and case ignored; `image/jpg` taken as JPEG), or nil.
    init?(mediaType: String) {
        let type = mediaType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        switch type {
        case "image/png": self = .png
        case "image/jpeg", "image/jpg", "image/pjpeg": self = .jpeg
        case "image/gif": self = .gif
        case "image/webp": self = .webp
        case "image/avif": self = .avif
        default: return nil
        }
    }

    /// The kind `bytes` start like, or nil.
    static func sniff(_ bytes: [UInt8]) -> ImageKind? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("ftyp".utf8), at: 4), bytes.count >= 16 {
            // the box's size, then the major brand, a version, and the compatible brands to the box's end
            let size = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let end = min(bytes.count, max(16, size))
            var brands = [Array(bytes[8..<12])]
            var at = 16
            while at + 4 <= end {
                brands.append(Array(bytes[at..<at + 4]))
                at += 4
            }
            if brands.contains(Array("avif".utf8)) || brands.contains(Array("avis".utf8)) { return .avif }
        }
        return nil
    }
}
