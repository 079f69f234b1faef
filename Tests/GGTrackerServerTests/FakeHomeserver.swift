import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The homeserver's answers in the stand-ins below.
enum FakeHomeserver {
    static func json(_ status: HTTPResponse.Status, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data))
        )
    }
}

/// A local stand-in for the homeserver's client-server endpoints the bot calls: join, send and power levels.
func fakeHomeserver(asToken: String, received: Received, powerLevels: [String: Int]) -> some ApplicationProtocol {
    let router = Router()
    @Sendable func authorized(_ request: Request) -> Bool { request.headers[.authorization] == "Bearer \(asToken)" }
    router.post("/_matrix/client/v3/join/:room") { request, context -> Response in
        guard authorized(request) else { return Response(status: .forbidden) }
        await received.add("join \(context.parameters.get("room")?.removingPercentEncoding ?? "")", nil, Data())
        return FakeHomeserver.json(.ok, ["room_id": context.parameters.get("room")?.removingPercentEncoding ?? ""])
    }
    router.put("/_matrix/client/v3/rooms/:room/send/m.room.message/:txn") { request, context -> Response in
        guard authorized(request) else { return Response(status: .forbidden) }
        let body = try await request.body.collect(upTo: 1 << 20)
        let txn = context.parameters.get("txn")?.removingPercentEncoding ?? ""
        await received.add(
            "send \(context.parameters.get("room")?.removingPercentEncoding ?? "")", txn, Data(buffer: body))
        return FakeHomeserver.json(.ok, ["event_id": "$sent-\(txn)"])
    }
    // The bot's own messages, by the ids the send above gave them; any other is unknown, as one never seen is.
    router.get("/_matrix/client/v3/rooms/:room/event/:event") { request, context -> Response in
        guard authorized(request) else { return Response(status: .forbidden) }
        let id = context.parameters.get("event")?.removingPercentEncoding ?? ""
        // An event a test said the room holds (`Received.add("event …")`), whole.
        if let held = await received.requests.last(where: { $0.path == "event \(id)" }) {
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(data: held.body)))
        }
        guard id.hasPrefix("$sent-"),
            let sent = await received.requests.last(where: { $0.path.hasPrefix("send") && "$sent-\($0.1 ?? "")" == id }
            ),
            let content = try? JSONSerialization.jsonObject(with: sent.body)
        else { return FakeHomeserver.json(.notFound, ["errcode": "M_NOT_FOUND", "error": "Event not found"]) }
        return FakeHomeserver.json(
            .ok,
            [
                "type": "m.room.message", "room_id": context.parameters.get("room")?.removingPercentEncoding ?? "",
                "sender": "@ggtracker:localhost", "event_id": id, "content": content,
            ])
    }
    // Direct messages: who the token is, the bot's `m.direct` account data, new rooms and their members.
    router.get("/_matrix/client/v3/account/whoami") { request, _ -> Response in
        guard authorized(request) else { return Response(status: .forbidden) }
        return FakeHomeserver.json(.ok, ["user_id": "@ggtracker:localhost"])
    }
    router.get("/_matrix/client/v3/user/:user/account_data/m.direct") { request, _ -> Response in
        guard authorized(request) else { return Response(status: .forbidden) }
        guard let held = await received.requests.last(where: { $0.path == "account_data m.direct" }) else {
            return FakeHomeserver.json(.notFound, ["errcode": "M_NOT_FOUND", "error": "Account data not found"])
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: held.body)))
    }
    router.put("/_matrix/client/v3/user/:user/account_data/m.direct") { request, _ -> Response in
        guard authorized(request) else { return Response(status: .forbidden) }
        await received.add("account_data m.direct", nil, Data(buffer: try await request.body.collect(upTo: 1 << 20)))
        return FakeHomeserver.json(.ok, [:])
    }
    router.post("/_matrix/client/v3/createRoom") { request, _ -> Response in
        guard authorized(request) else { return Response(status: .forbidden) }
        // A test may have the homeserver refuse (`Received.add("refuse createRoom")`).
        if await received.requests.contains(where: { $0.path == "refuse createRoom" }) {
            return FakeHomeserver.json(.forbidden, ["errcode": "M_FORBIDDEN", "error": "Not allowed"])
        }
        let count = await received.requests.filter { $0.path == "createRoom" }.count
        await received.add(
            "createRoom", "!dm\(count + 1):localhost", Data(buffer: try await request.body.collect(upTo: 1 << 20)))
        return FakeHomeserver.json(.ok, ["room_id": "!dm\(count + 1):localhost"])
    }
    router.get("/_matrix/client/v3/rooms/:room/state/m.room.member/:user") { request, context -> Response in
        guard authorized(request) else { return Response(status: .forbidden) }
        let room = context.parameters.get("room")?.removingPercentEncoding ?? ""
        // A membership a test set (`Received.add("membership {room}", nil, "leave")`), else invited to a room made.
        if let set = await received.requests.last(where: { $0.path == "membership \(room)" }) {
            return FakeHomeserver.json(.ok, ["membership": String(decoding: set.body, as: UTF8.self)])
        }
        guard await received.requests.contains(where: { $0.path == "createRoom" && $0.1 == room }) else {
            return FakeHomeserver.json(.notFound, ["errcode": "M_NOT_FOUND", "error": "Event not found"])
        }
        return FakeHomeserver.json(.ok, ["membership": "invite"])
    }
    // Authenticated media: a file a test said the homeserver keeps (`Received.add("media {server}/{id}")`).
    router.get("/_matrix/client/v1/media/download/:server/:media") { request, context -> Response in
        guard authorized(request) else {
            return FakeHomeserver.json(.unauthorized, ["errcode": "M_MISSING_TOKEN", "error": "Missing access token"])
        }
        let name = "media \(context.parameters.get("server") ?? "")/\(context.parameters.get("media") ?? "")"
        guard let held = await received.requests.last(where: { $0.path == name }) else {
            return FakeHomeserver.json(.notFound, ["errcode": "M_NOT_FOUND", "error": "Not found"])
        }
        return Response(
            status: .ok, headers: [.contentType: "text/csv"], body: .init(byteBuffer: ByteBuffer(data: held.body)))
    }
    router.get("/_matrix/client/v3/rooms/:room/state/m.room.power_levels") { request, _ -> Response in
        guard authorized(request) else { return Response(status: .forbidden) }
        return FakeHomeserver.json(.ok, ["users": powerLevels, "users_default": 0])
    }
    var logger = Logger(label: "fake-homeserver")
    logger.logLevel = .warning
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
}
