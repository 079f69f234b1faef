/// `bytes` random bytes from the system's secure generator, as twice as many lowercase hex digits: share-link
/// tokens, generated homeserver tokens, keys of long button commands, the process's part of delivery attempts' ids.
package func randomHex(bytes: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    var digits: [UInt8] = []
    digits.reserveCapacity(2 * bytes)
    var word: UInt64 = 0
    for index in 0..<bytes {
        if index % 8 == 0 { word = generator.next() }
        let byte = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
        for nibble in [byte >> 4, byte & 15] {
            digits.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }
    return String(decoding: digits, as: UTF8.self)
}
