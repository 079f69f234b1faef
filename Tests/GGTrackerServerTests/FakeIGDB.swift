import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A local stand-in for Twitch's token endpoint and IGDB's API v4, speaking their protocol: `POST /oauth2/token`
/// with client credentials; `POST /v4/games`, `/v4/games/count` and `/v4/game_time_to_beats` with `Client-ID` and
/// `Authorization: Bearer`,
/// an Apicalypse body (`fields`, `where` with `&`, `sort`, `limit`, `offset`, `search`), 401 for a bad or expired
/// token, and 429 when more than 4 requests start within a second.
actor FakeIGDBState {
    var games: [[String: Any]]
    var validTokens: Set<String> = []
    var tokensIssued = 0
    var requestStarts: [Date] = []
    var inFlight = 0
    var maxInFlight = 0
    var tooManyRequests = 0
    var queries: [String] = []
    /// Requests answered with 500 before behaving.
    var failNext = 0
    /// Tokens stop working after this many successful API requests (to test renewal).
    var tokenLifetime = Int.max
    var servedWithToken = 0
    /// How long each answer takes.
    var delay: Duration = .milliseconds(20)
    func setDelay(_ value: Duration) { delay = value }
    var apiRequests: Int { queries.count }

    /// Rows of `/v4/game_time_to_beats`: `id`, `game_id`, `hastily`, `normally`, `completely` (seconds), `count`.
    var timesToBeat: [[String: Any]] = []
    func setTimesToBeat(_ rows: [[String: Any]]) { timesToBeat = rows }

    init(games: [[String: Any]]) { self.games = games }

    func issueToken() -> String {
        tokensIssued += 1
        let token = "token-\(tokensIssued)"
        validTokens.insert(token)
        servedWithToken = 0
        return token
    }

    func begin(token: String?, body: String) -> (Int, String)? {
        let now = Date()
        requestStarts.append(now)
        queries.append(body)
        guard let token, validTokens.contains(token) else {
            return (
                401,
                #"{"message":"Authorization Failure. Have you tried:","Tip":"Check your 'Client-ID' and 'Authorization' headers"}"#
            )
        }
        if requestStarts.filter({ now.timeIntervalSince($0) < 1 }).count > 4 {
            tooManyRequests += 1
            return (429, #"{"message":"Too Many Requests"}"#)
        }
        if failNext > 0 {
            failNext -= 1
            return (500, #"{"message":"Internal Server Error"}"#)
        }
        if flood > 0 {
            flood -= 1
            tooManyRequests += 1
            return (429, #"{"message":"Too Many Requests"}"#)
        }
        servedWithToken += 1
        if servedWithToken > tokenLifetime {
            validTokens.remove(token)
            return (401, #"{"message":"Authorization Failure. Have you tried:"}"#)
        }
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
        return nil
    }

    func end() { inFlight -= 1 }

    func setFailNext(_ n: Int) { failNext = n }
    /// Answers 429 to this many requests, whatever the rate.
    var flood = 0
    func setFlood(_ n: Int) { flood = n }
    /// Answers with a body that is not JSON.
    var garbage = false
    func setGarbage(_ value: Bool) { garbage = value }
    func setTokenLifetime(_ n: Int) { tokenLifetime = n }
    func update(id: Int, _ change: @Sendable (inout [String: Any]) -> Void) {
        for index in games.indices where games[index]["id"] as? Int == id { change(&games[index]) }
    }
    func touch(ids: [Int], updatedAt: Int) {
        for index in games.indices where ids.contains(games[index]["id"] as! Int) {
            games[index]["updated_at"] = updatedAt
        }
    }

    /// Requests that started in the busiest one-second window.
    func busiestSecond() -> Int {
        let starts = requestStarts.sorted()
        var best = 0
        var low = 0
        for high in starts.indices {
            while starts[high].timeIntervalSince(starts[low]) >= 1 { low += 1 }
            best = max(best, high - low + 1)
        }
        return best
    }

    func answer(_ endpoint: String, _ query: Apicalypse) -> Any {
        if endpoint == "game_time_to_beats" {
            return Array(timesToBeat.filter { query.matches($0) }.prefix(min(query.limit, 500)))
        }
        var rows = games.filter { query.matches($0) }
        if let search = query.search?.lowercased() {
            rows = rows.filter { ($0["name"] as? String)?.lowercased().contains(search) == true }
        }
        if endpoint == "games/count" { return ["count": rows.count] }
        if let (field, ascending) = query.sort {
            rows.sort {
                let a = ($0[field] as? Int) ?? 0
                let b = ($1[field] as? Int) ?? 0
                return ascending ? a < b : a > b
            }
        }
        // Only the fields asked for, as IGDB answers: an expanded field (`version_parent.age_ratings.rating`)
        // brings its object.
        let asked = Set(query.fields.map { String($0.prefix { $0 != "." }) } + ["id"])
        return rows.dropFirst(query.offset).prefix(min(query.limit, 500)).map { row in
            query.fields.contains("*") ? row : row.filter { asked.contains($0.key) }
        }
    }
}

/// The parts of IGDB's query language the bot uses. https://api-docs.igdb.com/#apicalypse-1
struct Apicalypse {
    var fields: [String] = []
    var conditions: [(field: String, op: String, value: Int)] = []
    /// `field = (1,2,3)`: one of these values.
    var lists: [(field: String, values: Set<Int>)] = []
    var sort: (String, Bool)?
    var limit = 10
    var offset = 0
    var search: String?

    init(_ text: String) {
        for statement in text.split(separator: ";") {
            let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let space = trimmed.firstIndex(of: " ") else { continue }
            let keyword = trimmed[..<space]
            let rest = trimmed[trimmed.index(after: space)...].trimmingCharacters(in: .whitespaces)
            switch keyword {
            case "fields": fields = rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case "limit": limit = Int(rest) ?? 10
            case "offset": offset = Int(rest) ?? 0
            case "search": search = rest.trimmingCharacters(in: ["\""])
            case "sort":
                let parts = rest.split(separator: " ")
                sort = (String(parts[0]), parts.count < 2 || parts[1] == "asc")
            case "where":
                for clause in rest.split(separator: "&") {
                    let c = clause.trimmingCharacters(in: .whitespaces)
                    if let equals = c.range(of: "= ("), c.hasSuffix(")") {
                        let field = c[..<equals.lowerBound].trimmingCharacters(in: .whitespaces)
                        let values = c[equals.upperBound..<c.index(before: c.endIndex)].split(separator: ",").compactMap
                        {
                            Int($0.trimmingCharacters(in: .whitespaces))
                        }
                        lists.append((field, Set(values)))
                        continue
                    }
                    for op in [">=", "<=", ">", "<", "="] {
                        if let range = c.range(of: op) {
                            let field = c[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
                            let value = Int(c[range.upperBound...].trimmingCharacters(in: .whitespaces)) ?? 0
                            conditions.append((field, op, value))
                            break
                        }
                    }
                }
            default: break
            }
        }
    }

    func matches(_ row: [String: Any]) -> Bool {
        lists.allSatisfy { list in list.values.contains((row[list.field] as? Int) ?? 0) }
            && conditions.allSatisfy { condition in
                let value = (row[condition.field] as? Int) ?? 0
                switch condition.op {
                case ">": return value > condition.value
                case "<": return value < condition.value
                case ">=": return value >= condition.value
                case "<=": return value <= condition.value
                default: return value == condition.value
                }
            }
    }
}

func fakeIGDB(_ state: FakeIGDBState, clientID: String, secret: String) -> some ApplicationProtocol {
    let router = Router()
    router.post("/oauth2/token") { request, _ -> Response in
        let query = request.uri.queryParameters
        guard query.get("client_id") == clientID, query.get("client_secret") == secret,
            query.get("grant_type") == "client_credentials"
        else {
            return Response(
                status: .forbidden, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"status":403,"message":"invalid client secret"}"#)))
        }
        let token = await state.issueToken()
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(
                byteBuffer: ByteBuffer(
                    string: #"{"access_token":"\#(token)","expires_in":5587808,"token_type":"bearer"}"#)))
    }
    @Sendable func endpoint(_ name: String, _ request: Request) async throws -> Response {
        let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let tokenOK = request.headers[HTTPField.Name("Client-ID")!] == clientID ? bearer : nil
        if let (status, message) = await state.begin(token: tokenOK, body: body) {
            return Response(
                status: .init(code: status), headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: message)))
        }
        // Real requests take a little while; it lets concurrency show.
        try await Task.sleep(for: await state.delay)
        let answer = await state.answer(name, Apicalypse(body))
        await state.end()
        if await state.garbage {
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>upstream error</html>")))
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: try JSONSerialization.data(withJSONObject: answer))))
    }
    router.post("/v4/games") { request, _ in try await endpoint("games", request) }
    router.post("/v4/games/count") { request, _ in try await endpoint("games/count", request) }
    router.post("/v4/game_time_to_beats") { request, _ in try await endpoint("game_time_to_beats", request) }
    var logger = Logger(label: "fake-igdb")
    logger.logLevel = .warning
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
}

/// `count` games shaped like IGDB's, cycling through the fixture games with new ids and names.
func fakeGames(count: Int) throws -> [[String: Any]] {
    let lines = try String(contentsOfFile: TestHarness.fixturePath, encoding: .utf8).split(separator: "\n")
    let templates = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        .filter { $0["id"] != nil }
    return (1...count).map { i in
        var game = templates[i % templates.count]
        game["id"] = 100_000 + i
        game["name"] = "\(game["name"] as! String) \(i)"
        game["slug"] = "fake-\(i)"
        game["updated_at"] = 1_700_000_000 + i
        return game
    }
}
