import ArgumentParser
@preconcurrency import Crypto
import Foundation

// MARK: - Ed25519 ceiling

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ed25519 verifications per second on one thread (run it pinned: taskset -c 0 …).")
    @Option(help: "Seconds to measure.") var seconds = 3.0
    @Flag(help: "Print only the number.") var quiet = false

    static func rate(seconds: Double) -> Double {
        let key = Curve25519.Signing.PrivateKey()
        let publicKey = key.publicKey
        // Messages the size of a signed `/list` interaction: timestamp + about 700 bytes of JSON.
        let messages = (0..<64).map { i in Data("1700000000".utf8) + Data(repeating: UInt8(33 + i), count: 700) }
        let signatures = messages.map { try! key.signature(for: $0) }
        var count = 0
        let clock = ContinuousClock()
        let start = clock.now
        while (clock.now - start).seconds < seconds {
            for i in messages.indices where publicKey.isValidSignature(signatures[i], for: messages[i]) { count += 1 }
        }
        return Double(count) / (clock.now - start).seconds
    }

    func run() async throws {
        let rate = Self.rate(seconds: seconds)
        say(quiet ? format(rate, 0) : "Ed25519 verifications per second on one thread: \(format(rate, 0))")
    }
}
