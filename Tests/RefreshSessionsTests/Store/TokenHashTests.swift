import Testing

@testable import RefreshSessions

/// SHA-256 as tokens and share keys are hashed (``TokenHash``): FIPS 180-4's example vectors (NIST's "SHA256.pdf"
/// examples: the empty message, "abc", and the 448-bit two-block message), and the digest's hex form both ways.
@Suite struct TokenHashTests {
    @Test func fipsVectors() {
        #expect(TokenHash.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(TokenHash.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            TokenHash.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func aDigestReadsBackFromItsHexAndNothingElse() throws {
        let digest = TokenHash.Digest(of: "abc")
        let again = try #require(TokenHash.Digest(hex: digest.hex))
        #expect(again.matches(digest) && !again.matches(TokenHash.Digest(of: "abd")))
        let upper = digest.hex.uppercased()
        for bad in ["", String(digest.hex.dropLast()), digest.hex + "0", upper, "g" + digest.hex.dropFirst()] {
            #expect(TokenHash.Digest(hex: bad) == nil, "\(bad)")
        }
    }

    @Test func randomBitsAreThirtyTwoHexDigitsAndDiffer() {
        let a = RandomIdentifier.Bits().hex
        let b = RandomIdentifier.make128()
        #expect(a.count == 32 && b.count == 32 && a != b)
        #expect(a.utf8.allSatisfy { Hex.value($0) != nil })
    }
}
