@preconcurrency import Crypto
import Foundation

/// Verifies Discord's request signature: Ed25519 over the timestamp header followed by the raw body.
/// https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint-validating-security-request-headers
package struct DiscordSignatureVerifier: Sendable {
    package var publicKey: Curve25519.Signing.PublicKey
    /// Requests whose timestamp is further than this from the server's clock are refused (replays).
    package var tolerance: TimeInterval = 300

    package init(publicKey: Curve25519.Signing.PublicKey) {
        self.publicKey = publicKey
    }

    package func isValid(signatureHex: String?, timestamp: String?, body: some DataProtocol, now: Date = Date()) -> Bool
    {
        guard let signatureHex, let timestamp, signatureHex.count == 128,
            let signature = Hex.bytes(signatureHex),
            let seconds = TimeInterval(timestamp), abs(now.timeIntervalSince1970 - seconds) <= tolerance
        else { return false }
        var message = Data(timestamp.utf8)
        message.append(contentsOf: body)
        return publicKey.isValidSignature(signature, for: message)
    }
}
