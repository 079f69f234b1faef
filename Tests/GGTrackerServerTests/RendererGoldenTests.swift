import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

@Suite("Rendering replies")
struct RendererGoldenTests {
    func discord(_ reply: Reply, component: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let response = reply.discordResponse(isComponent: component) { "gg:" + $0 }
        return String(decoding: try encoder.encode(response), as: UTF8.self)
    }

    let card = Reply(
        cards: [
            Card(
                title: "Alice added Celeste (2018)", url: "https://www.igdb.com/games/celeste",
                description: "🎮 Playing · 3 h",
                thumbnailURL: "https://images.igdb.com/igdb/image/upload/t_thumb/co3byy.jpg",
                fields: [.init("Genres", "Platform")], footer: "igdb:26226", color: Palette.library)
        ],
        actions: [
            [
                Action(
                    "Mark completed",
                    .run(
                        .progress,
                        ["title": .game(GameRef(provider: "igdb", id: "26226")), "status": .status(.completed)]))
            ]
        ])

    @Test func publicCardGolden() throws {
        #expect(
            try discord(card) == """
                {
                  "data" : {
                    "allowed_mentions" : {
                      "parse" : [

                      ]
                    },
                    "components" : [
                      {
                        "components" : [
                          {
                            "custom_id" : "gg:/progress title:igdb:26226 status:completed",
                            "label" : "Mark completed",
                            "style" : 2,
                            "type" : 2
                          }
                        ],
                        "type" : 1
                      }
                    ],
                    "embeds" : [
                      {
                        "color" : 5763719,
                        "description" : "🎮 Playing · 3 h",
                        "fields" : [
                          {
                            "inline" : true,
                            "name" : "Genres",
                            "value" : "Platform"
                          }
                        ],
                        "footer" : {
                          "text" : "igdb:26226"
                        },
                        "thumbnail" : {
                          "url" : "https://images.igdb.com/igdb/image/upload/t_thumb/co3byy.jpg"
                        },
                        "title" : "Alice added Celeste (2018)",
                        "url" : "https://www.igdb.com/games/celeste"
                      }
                    ]
                  },
                  "type" : 4
                }
                """)
    }

    @Test func privateNoticeGolden() throws {
        #expect(
            try discord(.notice("No game matches “zzz”.")) == """
                {
                  "data" : {
                    "allowed_mentions" : {
                      "parse" : [

                      ]
                    },
                    "content" : "No game matches “zzz”.",
                    "flags" : 64
                  },
                  "type" : 4
                }
                """)
    }

    @Test func modalGolden() throws {
        let reply = Reply(
            visibility: .invokerOnly,
            modal: Modal(
                title: "Review: Celeste", .run(.review, ["title": .string("igdb:26226")]),
                inputs: [
                    .init(
                        option: "text", label: "Your review", paragraph: true, maxLength: 4000, value: nil,
                        placeholder: "What did you think?")
                ]))
        #expect(
            try discord(reply) == """
                {
                  "data" : {
                    "components" : [
                      {
                        "component" : {
                          "custom_id" : "text",
                          "max_length" : 4000,
                          "placeholder" : "What did you think?",
                          "required" : true,
                          "style" : 2,
                          "type" : 4
                        },
                        "label" : "Your review",
                        "type" : 18
                      }
                    ],
                    "custom_id" : "gg:/review title:igdb:26226",
                    "title" : "Review: Celeste"
                  },
                  "type" : 9
                }
                """)
    }

    @Test func pagingFromAButtonUpdatesTheMessage() throws {
        var reply = card
        reply.delivery = .updateMessage
        #expect(try discord(reply, component: true).contains("\"type\" : 7"))
        #expect(try discord(reply, component: false).contains("\"type\" : 4"))
    }

    @Test func oversizedCardsAreCutToDiscordsLimits() throws {
        let long = String(repeating: "word ", count: 2_000)
        let reply = Reply(
            cards: (0..<12).map { i in
                Card(
                    title: String(repeating: "T", count: 300), description: RichText(long),
                    fields: (0..<30).map { Card.Field("f\(i)-\($0)", long) })
            })
        let message = reply.discordMessage { $0 }
        let embeds = try #require(message.embeds)
        #expect(embeds.count == 10)
        #expect(embeds.reduce(0) { $0 + $1.countedLength } <= 6000)
        #expect(embeds.allSatisfy { ($0.title?.count ?? 0) <= 256 && ($0.fields?.count ?? 0) <= 25 })
    }

    @Test func matrixGolden() throws {
        let content = card.matrixContent(replyTo: "$cmd")
        #expect(content.msgtype == "m.notice")
        #expect(content.relatesTo?.inReplyTo.eventID == "$cmd")
        #expect(
            content.body == """
                Alice added Celeste (2018)
                🎮 Playing · 3 h
                Genres: Platform
                igdb:26226

                1. Mark completed: reply !gg progress title:igdb:26226 status:completed
                (Or reply to this message with a number.)
                """)
        #expect(
            content.formattedBody
                == "<blockquote><p><strong><a href=\"https://www.igdb.com/games/celeste\">Alice added Celeste (2018)</a></strong></p>"
                + "<p>🎮 Playing · 3 h</p><p><em>Genres</em>: Platform</p>"
                + "<p><a href=\"https://images.igdb.com/igdb/image/upload/t_thumb/co3byy.jpg\">cover</a></p>"
                + "<p><sub>igdb:26226</sub></p></blockquote>"
                + "<ol><li>Mark completed: reply <code>!gg progress title:igdb:26226 status:completed</code></li></ol>"
                + "<p><sub>(Or reply to this message with a number.)</sub></p>")
        #expect(content.commands == ["progress title:igdb:26226 status:completed"])
    }

    @Test func slackGolden() throws {
        let message = card.slackMessage()
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoder = try json.encode(message)
        #expect(
            String(decoding: encoder, as: UTF8.self)
                == #"{"blocks":[{"accessory":{"alt_text":"Alice added Celeste (2018)","image_url":"https://images.igdb.com/igdb/image/upload/t_thumb/co3byy.jpg","type":"image"},"text":{"text":"*<https://www.igdb.com/games/celeste|Alice added Celeste (2018)>*\n🎮 Playing · 3 h","type":"mrkdwn"},"type":"section"},{"fields":[{"text":"*Genres*\nPlatform","type":"mrkdwn"}],"type":"section"},{"elements":[{"text":"igdb:26226","type":"mrkdwn"}],"type":"context"},{"elements":[{"action_id":"gg-button-0","text":{"text":"Mark completed","type":"plain_text"},"type":"button","value":"/progress title:igdb:26226 status:completed"}],"type":"actions"}],"response_type":"in_channel","text":"Alice added Celeste (2018)"}"#
        )
    }

    @Test func plainTextForTheTerminal() {
        #expect(
            card.plainText() == """
                ▌ Alice added Celeste (2018)
                  https://www.igdb.com/games/celeste
                  🎮 Playing · 3 h
                  Genres: Platform
                  — igdb:26226

                  [Mark completed] /progress title:igdb:26226 status:completed
                """)
    }
}
