import Foundation
import Testing

@testable import GGTrackerServer

extension MatrixTests {
    /// A message answering another with its `m.in_reply_to`.
    static func reply(_ body: String, to answered: String, id: String) -> [String: Any] {
        var event = message(body, id: id)
        event["content"] = [
            "msgtype": "m.text", "body": body, "m.relates_to": ["m.in_reply_to": ["event_id": answered]],
        ]
        return event
    }

    /// The bot's numbered hints are offered in its message's content too, and a reply to that message with a number
    /// ("2", "#1", "!gg 2") runs the command of that number; a number it does not offer is refused, and a number
    /// answering someone else's message is chat.
    @Test func aNumberAnsweringTheBotsMessageRunsThatChoice() async throws {
        try await withBot { client, received in
            func answer() async throws -> String { try await Self.lastSent(received)["body"] as? String ?? "" }
            func sentCount() async -> Int { await received.requests.filter { $0.path.hasPrefix("send") }.count }
            _ = try await put(client, txn: "50", events: [Self.message("!gg add Celeste", id: "$add")])
            let offer = try await Self.lastSent(received)
            let commands = try #require(offer["org.ggtracker.commands"] as? [String])
            #expect(commands.count == 2 && commands[1].hasPrefix("progress title:igdb:26226 status:completed"))
            #expect(try await answer().hasSuffix("(Or reply to this message with a number.)"))

            _ = try await put(client, txn: "51", events: [Self.reply("2", to: "$sent-gg-$add", id: "$two")])
            #expect(try await answer().contains("alice completed Celeste (2018)"))
            _ = try await put(client, txn: "52", events: [Self.reply("!gg 9", to: "$sent-gg-$add", id: "$nine")])
            #expect(try await answer().contains("That message offers choices 1 to 2, not 9."))
            _ = try await put(client, txn: "53", events: [Self.reply("#1", to: "$sent-gg-$add", id: "$one")])
            let first = try await answer()
            #expect(first.contains("Celeste (2018)") && first.contains("Playing"), "\(first)")

            // A number answering a message that is not the bot's (or that offers nothing) is chat, unless sent as a
            // command.
            let before = await sentCount()
            _ = try await put(client, txn: "54", events: [Self.reply("1", to: "$someone", id: "$chat")])
            #expect(await sentCount() == before)
            _ = try await put(client, txn: "55", events: [Self.reply("!gg 1", to: "$someone", id: "$typed")])
            #expect(try await answer().contains("The message you answered offers nothing to choose by number."))
            // Sent on its own, a number is explained; as chat, it is left alone.
            _ = try await put(client, txn: "56", events: [Self.message("!gg 2", id: "$alone")])
            #expect(try await answer().contains("reply to the message that offers it with its number"))
            let quiet = await sentCount()
            _ = try await put(client, txn: "57", events: [Self.message("2", id: "$two-alone")])
            #expect(await sentCount() == quiet)
        }
    }

    /// An edit of a command sent in a thread is answered in that thread; an "edit" of someone else's message is none.
    @Test func anEditIsAnsweredInItsMessagesThreadAndOnlyForItsSender() async throws {
        try await withBot { client, received in
            var original = Self.message("!gg ad Celeste", id: "$inthread")
            original["content"] = [
                "msgtype": "m.text", "body": "!gg ad Celeste",
                "m.relates_to": ["rel_type": "m.thread", "event_id": "$root", "is_falling_back": true],
            ]
            // The homeserver holds the message the edit names.
            await received.add("event $inthread", nil, try JSONSerialization.data(withJSONObject: original))
            _ = try await put(client, txn: "60", events: [original])
            let sent = await received.requests.filter { $0.path.hasPrefix("send") }.count
            var foreign = Self.edit("$inthread", to: "!gg add Hades", id: "$bob-edit")
            foreign["sender"] = "@bob:localhost"
            _ = try await put(client, txn: "61", events: [foreign])
            #expect(await received.requests.filter { $0.path.hasPrefix("send") }.count == sent)

            // An edit without its new content (only the "* …" fallback) is not read as a command.
            var bare = Self.edit("$inthread", to: "!gg add Hades", id: "$bare")
            bare["content"] = [
                "msgtype": "m.text", "body": "* !gg add Hades",
                "m.relates_to": ["rel_type": "m.replace", "event_id": "$inthread"],
            ]
            _ = try await put(client, txn: "63", events: [bare])
            #expect(await received.requests.filter { $0.path.hasPrefix("send") }.count == sent)

            _ = try await put(client, txn: "62", events: [Self.edit("$inthread", to: "!gg add Celeste", id: "$fix")])
            let answer = try await Self.lastSent(received)
            #expect((answer["body"] as? String)?.contains("alice added Celeste (2018)") == true, "\(answer)")
            let relation = try #require(answer["m.relates_to"] as? [String: Any])
            #expect(relation["rel_type"] as? String == "m.thread" && relation["event_id"] as? String == "$root")
            #expect((relation["m.in_reply_to"] as? [String: Any])?["event_id"] as? String == "$inthread")
        }
    }
}
