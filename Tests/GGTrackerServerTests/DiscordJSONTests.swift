import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// The response bytes written on the hot path are the document the typed wire structs encode to.
@Suite("Discord responses written directly")
struct DiscordJSONTests {
    static func parsed(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    static func expectSame(_ response: DiscordResponse, _ comment: Comment? = nil) throws {
        let written = try parsed(response.json)
        let encoded = try parsed(try JSONEncoder().encode(response))
        #expect(written == encoded, comment)
    }

    static let tricky =
        "Quotes \" and back\\slash, a tab\tand a newline\n, a bell \u{7}, é, 🎮, </script> and https://x.y/z?a=1&b=2"

    @Test func everyKindOfReplyIsWrittenAsItIsEncoded() throws {
        let progress = Action(
            "Mark completed",
            .run(.progress, ["title": .game(GameRef(provider: "igdb", id: "26226")), "status": .status(.completed)]))
        let replies: [Reply] = [
            .notice(Self.tricky),
            Reply(
                cards: [
                    Card(
                        title: "Alice added Celeste (2018)", url: "https://www.igdb.com/games/celeste",
                        description: RichText(Self.tricky),
                        thumbnailURL: "https://images.igdb.com/igdb/image/upload/t_thumb/co3byy.jpg",
                        imageURL: "https://images.igdb.com/igdb/image/upload/t_cover_big/co3byy.jpg",
                        fields: [.init("Genres", "Platform"), .init("Notes", Self.tricky, inline: false)],
                        footer: "igdb:26226", color: 0x57F287),
                    Card(title: "Second", description: "only a description"),
                ],
                actions: [[progress, Action("Disabled", .run(.list), style: .primary, disabled: true)]],
                menus: [
                    Menu(
                        "Pick a game",
                        options: [
                            .init(
                                "Doom (1993)", description: "id Software", .run(.game, ["title": .string("igdb:673")])),
                            .init("Doom (2016)", .run(.game, ["title": .string("igdb:7351")])),
                        ])
                ]),
            Reply(visibility: .invokerOnly, delivery: .updateMessage, text: "A page", actions: [[progress]]),
            Reply(
                visibility: .invokerOnly,
                modal: Modal(
                    title: "Review: Celeste", .run(.review, ["title": .string("igdb:26226")]),
                    inputs: [
                        .init(
                            option: "text", label: "Your review", paragraph: true, maxLength: 4000, value: "So far…",
                            placeholder: "What did you think?")
                    ])),
        ]
        for (index, reply) in replies.enumerated() {
            for component in [false, true] {
                try Self.expectSame(
                    reply.discordResponse(isComponent: component) { "gg:" + $0 }, "reply \(index), \(component)")
            }
        }
    }

    @Test func pongsDeferralsAndChoicesToo() throws {
        try Self.expectSame(.pong)
        try Self.expectSame(DiscordResponse(type: .deferredChannelMessage, data: nil))
        try Self.expectSame(
            DiscordResponse(
                type: .autocompleteResult,
                data: .autocomplete(choices: [
                    DiscordChoice(name: "Celeste (2018)", value: "igdb:26226"),
                    DiscordChoice(name: Self.tricky, value: "igdb:1"),
                ])))
        try Self.expectSame(DiscordResponse(type: .autocompleteResult, data: .autocomplete(choices: [])))
    }
}
