import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Each platform's proof that a request is its own, checked as middleware on the platform's route group before
/// any handler runs. Discord and Slack sign the raw body, so it is read first (within the unverified-body budget)
/// and handed on, already in memory, to the handler.
extension Request {
    /// The request with its body replaced by bytes already read.
    func with(body: ByteBuffer) -> Request {
        var request = self
        request.body = RequestBody(buffer: body)
        return request
    }
}

/// A platform that signs the raw body (Discord: Ed25519 over the timestamp and body; Slack: HMAC-SHA256 with the
/// signing secret, a timestamp within 5 minutes, never seen before): the body is read within the budget, checked,
/// and handed on; a request that fails the check gets 401 and reaches no handler.
struct SignedBody<Context: RequestContext>: RouterMiddleware {
    let platform: String
    /// Why the platform cannot be served (it is not configured), answered with 503; nil when it can.
    let unavailable: String?
    let budget: UnverifiedBodyBudget?
    let metrics: RequestMetrics
    let isSigned: @Sendable (Request, ByteBuffer) async throws -> Bool

    // Hummingbird's middleware protocol asks for a function that runs apart from its caller.
    @concurrent func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let unavailable { return DiscordInteractionController.plain(.serviceUnavailable, unavailable + "\n") }
        let body = try await request.collectBody(budget: budget)
        guard try await isSigned(request, body) else {
            metrics.record(platform: platform, command: "-", outcome: .unauthorized)
            return DiscordInteractionController.plain(.unauthorized, "invalid request signature\n")
        }
        return try await next(request.with(body: body), context)
    }
}

extension SignedBody {
    static func discord(
        _ verifier: DiscordSignatureVerifier?, budget: UnverifiedBodyBudget?, metrics: RequestMetrics
    ) -> Self {
        Self(
            platform: "discord",
            unavailable: verifier == nil ? "Discord is not configured: set DISCORD_PUBLIC_KEY." : nil,
            budget: budget, metrics: metrics
        ) { request, body in
            verifier?.isValid(
                signatureHex: request.headers[HTTPField.Name("X-Signature-Ed25519")!],
                timestamp: request.headers[HTTPField.Name("X-Signature-Timestamp")!], body: body.readableBytesView)
                ?? false
        }
    }

    static func slack(_ slack: SlackController) -> Self {
        Self(platform: "slack", unavailable: nil, budget: slack.bodyBudget, metrics: slack.metrics) { request, body in
            try await slack.verify(request, body: body) != nil
        }
    }
}

/// The homeserver's `hs_token`, on every call it makes to the application service.
struct MatrixAuthorization<Context: RequestContext>: RouterMiddleware {
    let matrix: MatrixController

    // Hummingbird's middleware protocol asks for a function that runs apart from its caller.
    @concurrent func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let refusal = matrix.authorize(request) { return refusal }
        return try await next(request, context)
    }
}

/// Hexadecimal text, as keys and signatures are given.
enum Hex {
    /// The bytes hexadecimal digits spell; nil for an odd count or anything not a digit.
    static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
