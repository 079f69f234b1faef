import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A local stand-in for the Steam Web API and for Discord's file store, speaking their protocol:
/// `GET /IPlayerService/GetOwnedGames/v1/?key=&steamid=&include_appinfo=1&include_played_free_games=1&format=json`
/// answering `{"response":{"game_count":N,"games":[{appid,name,playtime_forever,…}]}}`, an empty `response` for a
/// private profile, 403 with Steam's HTML page for a wrong key and 400 without a steamid;
/// `GET /ISteamUser/ResolveVanityURL/v1/?key=&vanityurl=` answering `success` 1 with the steamid, or 42 and
/// "No match"; `GET /attachments/{channel}/{id}/{filename}` serving files as Discord's CDN does.
actor FakeSteamState {
    static let key = "0123456789ABCDEF0123456789ABCDEF"
    /// SteamID64 → owned games (`appid`, `name`, minutes played).
    var libraries: [String: [(appid: Int, name: String, minutes: Int)]] = [:]
    var privateProfiles: Set<String> = []
    var vanity: [String: String] = [:]
    var files: [String: Data] = [:]
    var requests: [String] = []
    /// How long GetOwnedGames takes to answer.
    var delay: Duration = .zero

    func own(_ steamID: String, _ games: [(appid: Int, name: String, minutes: Int)]) { libraries[steamID] = games }
    func makePrivate(_ steamID: String) { privateProfiles.insert(steamID) }
    func setVanity(_ name: String, _ steamID: String) { vanity[name] = steamID }
    func store(_ path: String, _ data: Data) { files[path] = data }
    func saw(_ request: String) { requests.append(request) }
    func setDelay(_ value: Duration) { delay = value }
}

func fakeSteam(_ state: FakeSteamState) -> some ApplicationProtocol {
    let router = Router()
    @Sendable func json(_ object: Any) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(data: try JSONSerialization.data(withJSONObject: object))))
    }
    @Sendable func html(_ status: HTTPResponse.Status, _ title: String, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html"],
            body: .init(
                byteBuffer: ByteBuffer(
                    string: "<html><head><title>\(title)</title></head><body><h1>\(title)</h1>\(text)</body></html>")))
    }
    let wrongKey = "Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter."
    /// Notes the request; Steam's answer to a wrong key (403) or a missing required parameter (400), if any.
    @Sendable func refusal(_ request: Request, requiring parameter: String) async -> Response? {
        let query = request.uri.queryParameters
        await state.saw(request.uri.description)
        guard query["key"].map(String.init) == FakeSteamState.key else {
            return html(.forbidden, "Forbidden", wrongKey)
        }
        guard query[Substring(parameter)] != nil else {
            return html(.badRequest, "Bad Request", "Required parameter '\(parameter)' is missing")
        }
        return nil
    }
    router.get("/IPlayerService/GetOwnedGames/v1/") { request, _ -> Response in
        let query = request.uri.queryParameters
        if let answer = await refusal(request, requiring: "steamid") { return answer }
        let steamID = String(query["steamid"]!)
        try await Task.sleep(for: await state.delay)
        if await state.privateProfiles.contains(steamID) { return try json(["response": [String: Any]()]) }
        let games = await state.libraries[steamID] ?? []
        let appInfo = query["include_appinfo"] == "1" || query["include_appinfo"] == "true"
        return try json([
            "response": [
                "game_count": games.count,
                "games": games.map { game -> [String: Any] in
                    var object: [String: Any] = [
                        "appid": game.appid, "playtime_forever": game.minutes, "playtime_windows_forever": game.minutes,
                        "playtime_mac_forever": 0, "playtime_linux_forever": 0, "playtime_deck_forever": 0,
                        "rtime_last_played": 1_700_000_000, "playtime_disconnected": 0,
                    ]
                    if appInfo {
                        object["name"] = game.name
                        object["img_icon_url"] = "0123456789abcdef0123456789abcdef01234567"
                        object["has_community_visible_stats"] = true
                    }
                    return object
                },
            ]
        ])
    }
    router.get("/ISteamUser/ResolveVanityURL/v1/") { request, _ -> Response in
        if let answer = await refusal(request, requiring: "vanityurl") { return answer }
        let name = String(request.uri.queryParameters["vanityurl"]!)
        if let id = await state.vanity[name] { return try json(["response": ["steamid": id, "success": 1]]) }
        return try json(["response": ["success": 42, "message": "No match"]])
    }
    router.get("/attachments/**") { request, _ -> Response in
        guard let data = await state.files[request.uri.path] else { return html(.notFound, "Not Found", "") }
        return Response(
            status: .ok, headers: [.contentType: "text/csv"], body: .init(byteBuffer: ByteBuffer(data: data)))
    }
    var logger = Logger(label: "fake-steam")
    logger.logLevel = .warning
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
}
