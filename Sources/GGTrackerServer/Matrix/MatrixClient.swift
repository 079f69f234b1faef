import AsyncHTTPClient
import Foundation
import GGTrackerCore
import NIOCore
import NIOHTTP1

/// The homeserver's client-server API as the application service uses it, authenticated with the `as_token`.
/// https://spec.matrix.org/v1.19/application-service-api/#client-server-api-extensions
package struct MatrixClient: Sendable {
    package var homeserver: String
    package var asToken: String
    package var client: HTTPClient

    package init(homeserver: String, asToken: String, client: HTTPClient = .shared) {
        self.homeserver = homeserver
        self.asToken = asToken
        self.client = client
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Calls the homeserver with an optional JSON body; returns the answer's body.
    @discardableResult
    func call(_ method: HTTPMethod, _ path: String, json: (some Encodable)? = String?.none) async throws -> Data {
        var request = HTTPClientRequest(url: homeserver + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(asToken)")
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(json)))
        }
        let response = try await client.execute(request, timeout: .seconds(15))
        let body = try await response.body.collect(upTo: 4 << 20)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw Failure(
                description: "\(method) \(path) answered \(response.status.code): \(String(buffer: body).prefix(300))")
        }
        return Data(buffer: body)
    }

    static func encode(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? segment
    }

    /// `POST /_matrix/client/v3/join/{roomIdOrAlias}`.
    package func join(_ room: String) async throws {
        try await call(.POST, "/_matrix/client/v3/join/\(Self.encode(room))", json: [String: String]())
    }

    /// `PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}`; the transaction id makes a retry idempotent.
    package func send(_ content: MatrixMessage, to room: String, transaction: String) async throws {
        try await call(
            .PUT, "/_matrix/client/v3/rooms/\(Self.encode(room))/send/m.room.message/\(Self.encode(transaction))",
            json: content)
    }

    /// `GET /_matrix/client/v3/rooms/{roomId}/event/{eventId}`: one event of a room the bot is in.
    package func event(_ id: String, in room: String) async throws -> MatrixEvent {
        let answer = try await call(.GET, "/_matrix/client/v3/rooms/\(Self.encode(room))/event/\(Self.encode(id))")
        return try JSONDecoder().decode(MatrixEvent.self, from: answer)
    }

    /// The bot's direct-message room with `user`: the one its `m.direct` account data names, while the user is in
    /// it or invited; else a new room the user is invited to, then named in `m.direct`.
    /// https://spec.matrix.org/latest/client-server-api/#direct-messaging
    package func directRoom(with user: String) async throws -> String {
        let me = try JSONDecoder().decode(
            MatrixWhoAmI.self, from: try await call(.GET, "/_matrix/client/v3/account/whoami"))
        let data = "/_matrix/client/v3/user/\(Self.encode(me.userID))/account_data/m.direct"
        // None yet answers 404.
        var direct = (try? JSONDecoder().decode([String: [String]].self, from: try await call(.GET, data))) ?? [:]
        for room in (direct[user] ?? []).reversed() {
            let state = try? await call(
                .GET, "/_matrix/client/v3/rooms/\(Self.encode(room))/state/m.room.member/\(Self.encode(user))")
            let membership = state.flatMap { try? JSONDecoder().decode(MatrixMembership.self, from: $0) }?.membership
            if membership == "join" || membership == "invite" { return room }
        }
        let created = try JSONDecoder().decode(
            MatrixDirectRoom.Created.self,
            from: try await call(.POST, "/_matrix/client/v3/createRoom", json: MatrixDirectRoom(invite: [user])))
        direct[user, default: []].append(created.roomID)
        try await call(.PUT, data, json: direct)
        return created.roomID
    }

    /// An announcement (a release alert) as a notice in its room: it pings exactly the users it names
    /// (`m.mentions`), whose pills its words hold.
    package func post(_ announcement: Announcement, transaction: String) async throws {
        var content = Reply(text: announcement.text, cards: announcement.cards).matrixContent(replyTo: nil)
        content.mentions.userIDs = announcement.pinging
        try await send(content, to: announcement.channel, transaction: transaction)
    }

    /// The room's `m.room.power_levels` state: a user's level, or the default.
    package func powerLevel(of user: String, in room: String) async throws -> Int {
        let answer = try await call(.GET, "/_matrix/client/v3/rooms/\(Self.encode(room))/state/m.room.power_levels")
        let levels = try? JSONDecoder().decode(MatrixPowerLevels.self, from: answer)
        return levels?.users?[user] ?? levels?.usersDefault ?? 0
    }
}
