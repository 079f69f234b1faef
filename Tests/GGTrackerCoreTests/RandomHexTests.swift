import Testing

@testable import GGTrackerCore

@Suite("Random identifiers")
struct RandomHexTests {
    /// Every length used (button keys, share tokens, generated homeserver tokens) gives that many bytes as hex,
    /// and identifiers do not repeat.
    @Test(arguments: [12, 16, 32])
    func twoHexDigitsForEachRandomByteAndNoRepeats(_ bytes: Int) {
        let made = (0..<2000).map { _ in randomHex(bytes: bytes) }
        #expect(made.allSatisfy { $0.utf8.count == 2 * bytes })
        #expect(made.allSatisfy { $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } })
        #expect(Set(made).count == made.count)
        // Every digit turns up, at both places of a byte: the whole of each byte is used.
        for place in 0..<2 {
            let seen = Set(
                made.flatMap { Array($0.utf8).enumerated().filter { $0.offset % 2 == place }.map(\.element) })
            #expect(seen.count == 16)
        }
    }
}
