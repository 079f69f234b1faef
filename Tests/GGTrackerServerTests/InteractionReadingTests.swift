import Foundation
import NIOCore
import PropertyBased
import Testing

@testable import GGTrackerServer

/// An interaction in the usual shape is read straight from its bytes; whatever it reads must be what `JSONDecoder`
/// makes of the same bytes, and what it does not read is left to `JSONDecoder`.
@Suite("Reading interactions from their bytes")
struct InteractionReadingTests {
    /// What Discord sends beyond the fields the bot reads (roles, entitlements, the guild, locales, owners).
    static let realistic = """
        {"app_permissions":"562949953421311","application_id":"1234567890","attachment_size_limit":26214400,
         "authorizing_integration_owners":{"0":"42"},"channel":{"flags":0,"guild_id":"42","id":"43",
         "last_message_id":"1300000000000000001","name":"général \\u00e9","nsfw":false,"parent_id":null,
         "permissions":"562949953421311","position":3,"rate_limit_per_user":0,"topic":null,"type":0},
         "channel_id":"43","context":0,"data":{"guild_id":"42","id":"9","name":"progress","options":[
         {"name":"title","type":3,"value":"Hollow Knight: \\"Silksong\\" \\ud83c\\udfae","focused":false},
         {"name":"hours","type":10,"value":12},{"name":"status","type":3,"value":null}],"type":1},
         "entitlement_sku_ids":[],"entitlements":[],"guild":{"features":["COMMUNITY"],"id":"42","locale":"en-US"},
         "guild_id":"42","guild_locale":"en-US","id":"1300000000000000002","locale":"fr",
         "member":{"avatar":null,"banner":null,"communication_disabled_until":null,"deaf":false,"flags":0,
         "joined_at":"2024-01-01T00:00:00.000000+00:00","mute":false,"nick":"Ann ✨","pending":false,
         "permissions":"562949953421311","premium_since":null,"roles":["1","2"],"unusual_dm_activity_until":null,
         "user":{"avatar":"a1b2","avatar_decoration_data":null,"discriminator":"0","global_name":"Ann",
         "id":"555555555555555555","public_flags":0,"username":"ann"}},"token":"aW50ZXJhY3Rpb24","type":2,
         "version":1,"big":123456789012345678901234567890,"real":-1.5e-7}
        """

    static let readable = [
        realistic,
        #"{"id":"1","type":1}"#,
        #"{"type":3,"id":"2","data":{"custom_id":"gm:0","component_type":3,"values":["gg:/add title:igdb:1"]},"user":{"id":"7","username":"bob","global_name":null}}"#,
        #"{"id":"3","type":4,"data":{"name":"add","options":[{"name":"title","type":3,"value":"hol","focused":true}]},"member":{"user":{"id":"8"},"permissions":"0"}}"#,
        #"{"id":"4","type":2,"data":{"name":"challenge","options":[{"name":"create","type":1,"options":[{"name":"goal","type":4,"value":10},{"name":"public","type":5,"value":true}]}]}}"#,
        #" {"id":"5","type":99,"data":null,"channel":null,"member":null,"token":null} "#,
    ]

    static func decoded(_ text: String) -> DiscordInteraction? {
        try? JSONDecoder().decode(DiscordInteraction.self, from: Data(text.utf8))
    }

    static func read(_ text: String) -> DiscordInteraction? {
        Data(text.utf8).withUnsafeBytes(DiscordInteraction.read)
    }

    @Test(arguments: readable)
    func theUsualShapesAreReadAsTheDecoderReadsThem(_ text: String) throws {
        let read = try #require(Self.read(text), "not read: \(text)")
        #expect(read == Self.decoded(text))
    }

    @Test func theRealisticInteractionKeepsItsFields() throws {
        let read = try #require(Self.read(Self.realistic))
        #expect(read.type == .applicationCommand && read.guildID == "42" && read.channel?.nsfw == false)
        #expect(read.member?.nick == "Ann ✨" && read.member?.user?.globalName == "Ann")
        #expect(read.data?.options?.first?.value == .string("Hollow Knight: \"Silksong\" 🎮"))
        #expect(read.data?.options?[1].value == .integer(12) && read.data?.options?[2].value == nil)
    }

    /// Shapes the reader leaves to the decoder: the decoder's answer (a value, or a refusal) is the one given.
    @Test(
        arguments: [
            #"{"id":"1","type":5,"data":{"custom_id":"gg:/review","components":[{"type":1,"components":[]}]}}"#,
            #"{"id":"1","type":2,"data":{"name":"compare","resolved":{"users":{"7":{"id":"7"}}}}}"#,
            #"{"id":"1","type":2,"data":{"name":"progress","options":[{"name":"hours","type":10,"value":2.5}]}}"#,
            #"{"id":"1","type":2,"data":{"name":"progress","options":[{"name":"hours","type":10,"value":1e2}]}}"#,
            #"{"i\u0064":"1","type":2}"#,
            #"{"id":"1","id":"2","type":2}"#,
            #"{"id":"1","type":2} x"#,
            #"{"id":1,"type":2}"#,
            #"{"id":"1","type":2.0}"#,
            #"{"type":2}"#,
            #"[{"id":"1","type":2}]"#,
            #"{"id":"1","type":2,"member":{"permissions":8}}"#,
            #"{"id":"1","type":2,"extra":[1,2,}"#,
            "{\"id\":\"1\",\"type\":2,\"token\":\"a\u{1}b\"}",
        ])
    func otherShapesAreLeftToTheDecoder(_ text: String) throws {
        #expect(Self.read(text) == nil)
        let decoded = Result { try DiscordInteraction.decode(ByteBuffer(string: text)) }
        #expect((try? decoded.get()) == Self.decoded(text))
    }

    /// Mutated interactions (leaves of other types, removed, huge) and the same with bytes cut, doubled or
    /// replaced: whatever the reader reads, the decoder reads alike.
    @Test func whateverIsReadIsWhatTheDecoderReads() async {
        let inputs = Gen<Int>.value(in: 0...Int.max).map { seed -> Data in
            var rng = FuzzPropertyTests.SplitMix(state: UInt64(seed))
            let template =
                seed % 3 == 0
                ? (try! JSONSerialization.jsonObject(with: Data(Self.realistic.utf8)))
                : FuzzPropertyTests.templates[seed % FuzzPropertyTests.templates.count]
            let mutated = FuzzPropertyTests.mutate(template, &rng) as? [String: Any] ?? [:]
            var data = (try? JSONSerialization.data(withJSONObject: mutated)) ?? Data()
            if seed % 4 == 1, !data.isEmpty {
                let at = Int.random(in: 0..<data.count, using: &rng)
                switch seed % 12 {
                case 1: data.remove(at: at)
                case 5: data.insert(data[at], at: at)
                default: data[at] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            return data
        }
        let count = 4000
        let readCount = ReadCount()
        await propertyCheck(count: count, input: inputs) { data in
            guard let read = data.withUnsafeBytes(DiscordInteraction.read) else { return }
            readCount.add()
            let decoded = Result { try JSONDecoder().decode(DiscordInteraction.self, from: data) }
            #expect((try? decoded.get()) == read, "\(String(decoding: data, as: UTF8.self))")
        }
        // Enough mutations keep the usual shape (one in twelve or so) for the comparison to stand for something.
        #expect(readCount.value > count / 20)
    }

    final class ReadCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }
}
