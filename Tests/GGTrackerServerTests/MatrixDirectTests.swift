import Foundation
import GGTrackerCore
import NIOCore
import Synchronization
import Testing

@testable import GGTrackerServer

extension MatrixTests {
    /// The messages the bot sent to a room, as content.
    static func sent(to room: String, _ received: Received) async -> [[String: Any]] {
        await received.requests.filter { $0.path == "send \(room)" }.compactMap {
            try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any]
        }
    }

    /// Everyone in a room reads a private answer there, so an export's one-download link goes to its asker in a
    /// direct-message room (made once, named in the bot's `m.direct`, made again once they left it); the room hears
    /// only where it went.
    @Test func anExportLinkIsSentInADirectMessageNotToTheRoom() async throws {
        try await withBot { client, received in
            _ = try await put(client, txn: "100", events: [Self.message("!gg export", id: "$export")])
            let inRoom = await Self.sent(to: Self.room, received)
            let pointer = try #require(inRoom.last?["body"] as? String)
            #expect(pointer.contains("For alice:") && pointer.contains("sent to you in a direct message"), "\(pointer)")
            #expect(!inRoom.contains { ($0["body"] as? String)?.contains("/export/") == true }, "the link stays out")
            let created = try #require(await received.requests.first { $0.path == "createRoom" })
            let request = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
            #expect(request["invite"] as? [String] == ["@alice:localhost"] && request["is_direct"] as? Bool == true)
            let direct = await Self.sent(to: "!dm1:localhost", received)
            let link = try #require(direct.first?["body"] as? String)
            #expect(link.contains("Your export (CSV) is ready: ") && link.contains("/export/"), "\(link)")
            #expect(!link.hasPrefix("For alice") && direct.first?["m.relates_to"] == nil)
            #expect(direct.first?["org.ggtracker.direct"] == nil)
            let data = try #require(await received.requests.last { $0.path == "account_data m.direct" })
            #expect(
                (try JSONSerialization.jsonObject(with: data.body) as? [String: [String]])?["@alice:localhost"]
                    == ["!dm1:localhost"])
            // The link works, once.
            let path = try #require(
                link.range(of: "/export/").map { link[$0.lowerBound...] }?.split(whereSeparator: \.isWhitespace).first)
            let download = try await client.client.execute(uri: String(path), method: .get) { $0.status }
            #expect(download == .ok)

            // The next export goes to the same room; once alice left it, to a new one.
            _ = try await put(client, txn: "101", events: [Self.message("!gg export format:json", id: "$again")])
            #expect(await Self.sent(to: "!dm1:localhost", received).count == 2)
            await received.add("membership !dm1:localhost", nil, Data("leave".utf8))
            _ = try await put(client, txn: "102", events: [Self.message("!gg export", id: "$third")])
            #expect(await Self.sent(to: "!dm2:localhost", received).count == 1)
            #expect(await received.requests.filter { $0.path == "createRoom" }.count == 2)
        }
    }

    /// Where no direct message can be sent, the link is not posted in the room either.
    @Test func anExportLinkThatCannotGoDirectlyIsKeptBack() async throws {
        try await withBot { client, received in
            await received.add("refuse createRoom", nil, Data())
            _ = try await put(client, txn: "110", events: [Self.message("!gg export", id: "$export")])
            let inRoom = await Self.sent(to: Self.room, received)
            let pointer = try #require(inRoom.last?["body"] as? String)
            #expect(pointer.contains("a direct message to you could not be sent"), "\(pointer)")
            #expect(!inRoom.contains { ($0["body"] as? String)?.contains("/export/") == true })
            // Other private answers stay in the room, as before.
            _ = try await put(client, txn: "111", events: [Self.message("!gg rate", id: "$usage")])
            #expect(
                (await Self.sent(to: Self.room, received).last?["body"] as? String)?.hasPrefix("For alice:") == true)
        }
    }
}
