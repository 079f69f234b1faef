@preconcurrency import Crypto
import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerFuzzing
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PropertyBased
import Testing

@testable import GGTrackerServer

/// Random and mutated input against every decoder behind a signature, and the whole bot behind the text parser.
/// Each property states what any input must get: an answer, never a crash or a server error.
@Suite("Fuzzing the decoders")
struct FuzzPropertyTests {
    static let fuzzer = Task { try! await DecoderFuzzer() }

    /// Pieces a command line is made of: real words, options, and awkward text.
    static let pieces = [
        "/add", "/progress", "/rate", "/review", "/list", "/search", "/challenge", "create", "join", "progress",
        "/admin", "catalog", "refresh", "/help", "!gg", "title:", "title:Hades", "score:", "score:11", "score:-1",
        "hours:1e308", "hours:NaN", "percent:101", "status:completed", "page:0", "page:99999999999999999999",
        "user:<@123>", "user:<@!>", "name:\"", "\"", "\"\"", "'", "\\", "\\\"", ":", "::", "=", "query:zeldda",
        "ends:2099-02-30", "goal:0", "unit:custom", "tag:", "text:" + String(repeating: "x", count: 5000), "é", "ﬁ",
        "🎮", "\u{0}", "\u{202E}", "\n", "\t", "<script>", "@everyone", "`", "```", "*", "||", "%", "%00",
    ]

    static let line = Gen.element(of: pieces).array(of: 0...10).map { $0.compactMap { $0 }.joined(separator: " ") }

    static let bytes = Gen<UInt8>.value(in: 0...255).array(of: 0...600)

    /// Splits a seed into a stream of random numbers, so a mutation is reproducible from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A JSON value with a few of its leaves replaced by values of other types, removed, or made huge.
    static func mutate(_ value: Any, _ rng: inout SplitMix, depth: Int = 0) -> Any? {
        let roll = Int.random(in: 0..<100, using: &rng)
        if depth > 0 && roll < 6 { return nil }
        if roll < 14 {
            let replacements: [Any] = [
                NSNull(), 0, -1, Int64.max, 1.5e300, true, "", String(repeating: "ж", count: 3000), [Any](),
                [String: Any](), "not a snowflake", ["nested": ["deeper": [1, 2, 3]]],
            ]
            return replacements[Int.random(in: 0..<replacements.count, using: &rng)]
        }
        if let object = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (key, child) in object { out[key] = mutate(child, &rng, depth: depth + 1) }
            return out
        }
        if let array = value as? [Any] {
            var out = array.compactMap { mutate($0, &rng, depth: depth + 1) }
            if roll > 95, let first = out.first { out += Array(repeating: first, count: 30) }
            return out
        }
        return value
    }

    static let templates: [[String: Any]] = [
        Interaction.command(
            "progress", [Interaction.option("title", "Hades"), Interaction.option("hours", 3.0)]),
        Interaction.command(
            "challenge",
            [
                Interaction.sub(
                    "create",
                    [
                        Interaction.option("name", "Laps"), Interaction.option("goal", 10.0),
                        Interaction.option("unit", "custom"), Interaction.option("ends", "2099-01-01"),
                    ])
            ]),
        Interaction.command("compare", [Interaction.user("user", .bob)], resolvedUsers: [.bob]),
        Interaction.button("gg:/list page:2"),
        Interaction.modal("gg:/review title:Celeste", fields: ["text": "Lovely"]),
        Interaction.autocomplete("add", [Interaction.option("title", "hol", focused: true)]),
    ]

    static let mutatedInteraction = Gen<Int>.value(in: 0...Int.max).map { seed -> Data in
        var rng = SplitMix(state: UInt64(seed))
        let template = templates[Int.random(in: 0..<templates.count, using: &rng)]
        var mutated = mutate(template, &rng) as? [String: Any] ?? [:]
        mutated["id"] = String(1_500_000_000_000_000_000 + seed % 1_000_000_000)
        return (try? JSONSerialization.data(withJSONObject: mutated)) ?? Data("{}".utf8)
    }

    /// A catalog line in IGDB's shape, with every kind of field the mapping reads.
    static let catalogLine: [String: Any] = [
        "id": 5, "name": "Baldur's Gate", "slug": "baldurs-gate", "summary": "A \"classic\".",
        "first_release_date": 914_198_400, "aggregated_rating": 90.5, "aggregated_rating_count": 12,
        "total_rating_count": 400, "cover": ["image_id": "co20gb"], "url": "https://www.igdb.com/games/baldurs-gate",
        "platforms": [["name": "Linux"], ["name": "PC (Microsoft Windows)"]],
        "genres": [["name": "Role-playing (RPG)"]],
        "game_modes": ["Single player"], "themes": [["name": "Fantasy"]], "game_engines": [["name": "Infinity"]],
        "involved_companies": [
            ["company": ["name": "BioWare"], "developer": true, "publisher": false],
            ["company": ["name": "Interplay"], "developer": false, "publisher": true],
        ],
        "game_type": ["type": "Main Game"], "release_dates": [["date_format": 0]], "age_ratings": [["rating": 10]],
        "time_to_beat": ["normally": 180_000], "external_games": [["category": 1, "uid": "228280"]],
        "updated_at": 1_700_000_000,
    ]

    /// The import reads a line into typed fields; whatever a line holds, that gives the game the mapping makes of
    /// the same line read as an object, or refuses it alike.
    @Test func mutatedCatalogLinesAreReadAlikeByBothReaders() async {
        let lines = Gen<Int>.value(in: 0...Int.max).map { seed -> Data in
            var rng = SplitMix(state: UInt64(seed))
            let mutated = Self.mutate(Self.catalogLine, &rng) as? [String: Any] ?? [:]
            return (try? JSONSerialization.data(withJSONObject: mutated)) ?? Data("{}".utf8)
        }
        await propertyCheck(count: 1500, input: lines) { line in
            let reader = JSONLineReader()
            let viaObject = Result { try IGDBGameMapping.record(from: try reader.object(line)) }
            let typed = Result { try IGDBGameMapping.record(from: try reader.igdbFields(line)) }
            switch (viaObject, typed) {
            case (.success(let expected), .success(let typed)):
                #expect(typed.game == expected.game && typed.steamAppIDs == expected.steamAppIDs)
                #expect(typed.keywords == expected.keywords && typed.popularity == expected.popularity)
            case (.failure(let expected), .failure(let typed)):
                #expect("\(typed)" == "\(expected)")
            default:
                Issue.record("\(String(decoding: line, as: UTF8.self)): \(viaObject) against \(typed)")
            }
        }
    }

    @Test func randomBytesNeverCrashADecoder() async {
        await propertyCheck(count: 2500, input: Self.bytes) { bytes in
            let outcome = await Self.fuzzer.value.run(Data(bytes))
            #expect(outcome.importedGame == outcome.importedGameTyped)
        }
    }

    @Test func commandLinesAreParsedOrRefusedWithUsage() async {
        await propertyCheck(count: 4000, input: Self.line) { line in
            do {
                _ = try BotCommand(try TextCommandParser.parse(line))
            } catch is UsageError {
                // Refused with a message for the user.
            } catch {
                Issue.record("\(line) threw \(error)")
            }
        }
    }

    @Test func everyCommandLineGetsAReplyFromTheBot() async throws {
        let harness = try await TestHarness()
        let bot = harness.services.bot
        let alice = Invoker(
            platform: .slack, userID: "U1", displayName: "alice", community: "slack:T1", isAdmin: false)
        await propertyCheck(count: 600, input: Self.line) { line in
            do {
                let reply = try await bot.respond(toLine: line, from: alice)
                #expect(!reply.plainText().isEmpty, "an empty reply to \(line)")
            } catch {
                Issue.record("\(line) threw \(error)")
            }
        }
    }

    @Test func mutatedSignedInteractionsGetAnAnswerNeverAServerError() async throws {
        let harness = try await TestHarness()
        try await harness.withClient(logLevel: .error) { client in
            await propertyCheck(count: 500, input: Self.mutatedInteraction) { body in
                let stamp = String(Int(Date().timeIntervalSince1970))
                let answer = try await client.post(
                    body, signature: client.sign(body, timestamp: stamp), timestamp: stamp)
                // An answer to anything: a reply, or a refusal of the request (malformed, too large, too slow to
                // arrive on a loaded machine); never a server error.
                #expect(
                    answer.status.code < 500,
                    "\(answer.status) for \(String(decoding: body.prefix(2_000), as: UTF8.self))")
            }
        }
    }

    @Test func randomMatrixTransactionsAndSlackFormsAreAnsweredNeverAServerError() async throws {
        let secret = "fuzz-secret"
        let harness = try await TestHarness { config in
            config.matrixHSToken = "hs-secret"
            config.matrixASToken = "as-secret"
            config.slackSigningSecret = secret
        }
        let matrixBody = Gen<Int>.value(in: 0...Int.max).map { seed -> Data in
            var rng = SplitMix(state: UInt64(seed))
            let event: [String: Any] = [
                "type": "m.room.message", "room_id": "!r:localhost", "sender": "@alice:localhost",
                "event_id": "$e\(seed)", "content": ["msgtype": "m.text", "body": "!gg add title:Hades"],
            ]
            let mutated = Self.mutate(["events": [event, event]], &rng) ?? [:]
            guard JSONSerialization.isValidJSONObject(mutated) else { return Data("[]".utf8) }
            return (try? JSONSerialization.data(withJSONObject: mutated)) ?? Data()
        }
        try await harness.withClient(logLevel: .error) { client in
            await propertyCheck(count: 300, input: matrixBody) { body in
                let status = try await client.client.execute(
                    uri: "/_matrix/app/v1/transactions/\(UUID().uuidString)", method: .put,
                    headers: [.authorization: "Bearer hs-secret", .contentType: "application/json"],
                    body: ByteBuffer(data: body)
                ) { $0.status }
                #expect(status == .ok || status == .badRequest)
            }
            await propertyCheck(count: 300, input: Self.bytes, Self.line) { bytes, line in
                // Random bytes, then a form with a random command line and a random button payload.
                for body in [
                    // Slack sends a fresh trigger_id with each request; the same signed body twice is a replay.
                    String(decoding: bytes, as: UTF8.self) + "&trigger_id=\(UUID().uuidString)",
                    "trigger_id=\(UUID().uuidString)&user_id=U1&team_id=T1&text="
                        + (line.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                    "trigger_id=\(UUID().uuidString)&payload="
                        + ("{\"user\":{\"id\":\"U1\"},\"team\":{\"id\":\"T1\"},\"actions\":[{\"value\":\"\(line)\"}]}"
                            .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                ] {
                    let stamp = String(Int(Date().timeIntervalSince1970))
                    let mac = HMAC<SHA256>.authenticationCode(
                        for: Data("v0:\(stamp):\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
                    let path = body.contains("payload=") ? "/slack/interactions" : "/slack/commands"
                    let status = try await client.client.execute(
                        uri: path, method: .post,
                        headers: [
                            .contentType: "application/x-www-form-urlencoded",
                            HTTPField.Name("X-Slack-Request-Timestamp")!: stamp,
                            HTTPField.Name("X-Slack-Signature")!: "v0="
                                + mac.map { String(format: "%02x", $0) }.joined(),
                        ], body: ByteBuffer(string: body)
                    ) { $0.status }
                    #expect(status == .ok || status == .badRequest, "\(status) for \(body.prefix(200))")
                }
            }
        }
    }
}
