import AsyncHTTPClient
import Foundation
import GGTrackerStorage
import Logging
import Metrics
import NIOCore
import NIOHTTP1

/// IGDB's API v4: a Twitch client-credentials token, then Apicalypse queries as POST bodies.
/// https://api-docs.igdb.com/#authentication, https://api-docs.igdb.com/#requests
package struct IGDBClient: Sendable {
    package var apiBase: String
    package var oauthBase: String
    package var clientID: String
    package var clientSecret: String
    package var database: AppDatabase
    package var limiter: RateLimiter
    package var http: HTTPClient
    package var logger: Logger
    package var maxAttempts = 5
    package var requestTimeout: TimeAmount = .seconds(20)
    /// Where request counts (by status, 429s included) go; the server passes its Prometheus registry's factory.
    package var metrics: any MetricsFactory = NOOPMetricsHandler.instance
    let tokens = TokenCache()

    /// The process-wide limiter: IGDB allows 4 requests per second and 8 open at once.
    package static let sharedLimiter = RateLimiter(perSecond: 4, maxInFlight: 8)

    package init(
        apiBase: String, oauthBase: String, clientID: String, clientSecret: String, database: AppDatabase,
        limiter: RateLimiter = IGDBClient.sharedLimiter, http: HTTPClient = .shared, logger: Logger
    ) {
        self.apiBase = apiBase
        self.oauthBase = oauthBase
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.database = database
        self.limiter = limiter
        self.http = http
        self.logger = logger
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package var retryAfter: Double?
    }

    /// The fields of a game the catalog keeps, expanded (`cover.image_id`, `genres.name`, …).
    package static let gameFields =
        ([
            "name", "slug", "summary", "first_release_date", "total_rating", "total_rating_count", "aggregated_rating",
            "aggregated_rating_count", "cover.image_id", "genres.name", "platforms.name", "platforms.abbreviation",
            "game_modes.name", "game_engines.name", "involved_companies.company.name", "involved_companies.developer",
            "involved_companies.publisher", "age_ratings.organization", "age_ratings.rating_category",
            "age_ratings.category", "age_ratings.rating", "url", "updated_at", "game_type.type", "release_dates.date",
            "release_dates.date_format", "external_games.external_game_source", "external_games.category",
            "external_games.uid", "external_games.url",
        ] + parentAgeRatingFields).joined(separator: ",")

    /// The age ratings of a DLC's or expansion's game (`parent_game`) and of an edition's (`version_parent`), for a
    /// release without its own.
    static let parentAgeRatingFields = ["parent_game", "version_parent"].flatMap { parent in
        ["organization", "rating_category", "category", "rating"].map { "\(parent).age_ratings.\($0)" }
    }

    /// A cached access token: in memory, and in the database so a restart does not ask again.
    final class TokenCache: @unchecked Sendable {
        private let lock = NSLock()
        private var token: (value: String, expires: Date)?
        func get() -> (String, Date)? { lock.withLock { token.map { ($0.value, $0.expires) } } }
        func set(_ value: String, _ expires: Date) { lock.withLock { token = (value, expires) } }
        func clear() { lock.withLock { token = nil } }
    }

    func accessToken(forceNew: Bool = false) async throws -> String {
        let now = Date()
        if !forceNew {
            if let (token, expires) = tokens.get(), expires > now.addingTimeInterval(60) { return token }
            if let stored = try await database.catalogState.value("igdb.token"),
                let expiry = try await database.catalogState.value("igdb.token_expires"),
                let seconds = Double(expiry), Date(timeIntervalSince1970: seconds) > now.addingTimeInterval(60)
            {
                tokens.set(stored, Date(timeIntervalSince1970: seconds))
                return stored
            }
        }
        var components = URLComponents(string: oauthBase + "/token")!
        components.queryItems = [
            .init(name: "client_id", value: clientID), .init(name: "client_secret", value: clientSecret),
            .init(name: "grant_type", value: "client_credentials"),
        ]
        var request = HTTPClientRequest(url: components.string!)
        request.method = .POST
        let response = try await http.execute(request, timeout: requestTimeout)
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok,
            let json = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any],
            let token = json["access_token"] as? String
        else {
            throw Failure(
                description:
                    "the Twitch token endpoint answered \(response.status.code): \(String(decoding: body.readableBytesView, as: UTF8.self).prefix(200)) — check IGDB_CLIENT_ID and IGDB_CLIENT_SECRET"
            )
        }
        let expires = now.addingTimeInterval((json["expires_in"] as? Double) ?? 3600)
        tokens.set(token, expires)
        try await database.catalogState.set("igdb.token", token)
        try await database.catalogState.set("igdb.token_expires", String(expires.timeIntervalSince1970))
        return token
    }

    /// Sends an Apicalypse query to an endpoint and returns the decoded JSON array. Every attempt goes through the
    /// limiter; 429, 5xx and timeouts are retried with backoff, a 401 renews the token once.
    package func query(_ endpoint: String, _ body: String) async throws -> [[String: Any]] {
        guard let rows = try await send(endpoint, body) as? [[String: Any]] else {
            throw Failure(description: "IGDB answered something other than a JSON array to \(endpoint)")
        }
        return rows
    }

    /// The same games with their time to beat, from `POST /game_time_to_beats` for all of them in one request
    /// (`time_to_beat` on each row that has one). Time to beat adds to a game: when IGDB does not answer it, the
    /// games come back as they were.
    package func withTimesToBeat(_ rows: [[String: Any]]) async -> [[String: Any]] {
        let ids = rows.compactMap { IGDBGameMapping.int($0["id"]) }
        guard !ids.isEmpty else { return rows }
        let times: [[String: Any]]
        do {
            times = try await query(
                "game_time_to_beats",
                "fields game_id,hastily,normally,completely; where game_id = (\(ids.map(String.init).joined(separator: ","))); limit \(ids.count);"
            )
        } catch {
            logger.warning("IGDB's time to beat could not be read", metadata: ["error": "\(error)"])
            return rows
        }
        var byGame: [Int: [String: Any]] = [:]
        for time in times { if let id = IGDBGameMapping.int(time["game_id"]) { byGame[id] = time } }
        return rows.map { row in
            guard let id = IGDBGameMapping.int(row["id"]), let time = byGame[id] else { return row }
            var row = row
            row["time_to_beat"] = time
            return row
        }
    }

    /// `POST {endpoint}/count`, which answers `{"count": n}`.
    package func count(_ endpoint: String, _ body: String) async throws -> Int? {
        (try await send("\(endpoint)/count", body) as? [String: Any])?["count"] as? Int
    }

    func send(_ endpoint: String, _ body: String) async throws -> Any {
        var renewed = false
        var delay = 0.25
        for attempt in 1...maxAttempts {
            let token = try await accessToken()
            do {
                let (status, data) = try await limiter.run { () async throws -> (UInt, Data) in
                    var request = HTTPClientRequest(url: "\(apiBase)/\(endpoint)")
                    request.method = .POST
                    request.headers.add(name: "Client-ID", value: clientID)
                    request.headers.add(name: "Authorization", value: "Bearer \(token)")
                    request.headers.add(name: "Accept", value: "application/json")
                    request.body = .bytes(ByteBuffer(string: body))
                    let response = try await http.execute(request, timeout: requestTimeout)
                    let bytes = try await response.body.collect(upTo: 32 << 20)
                    return (response.status.code, Data(bytes.readableBytesView))
                }
                try? await database.catalogState.countRequest("igdb.requests")
                ProviderCalls.count("igdb", status: "\(status)", metrics)
                switch status {
                case 200:
                    guard let json = try? JSONSerialization.jsonObject(with: data) else {
                        // Not the query: it holds what a user typed.
                        logger.error(
                            "IGDB answered malformed JSON",
                            metadata: ["endpoint": "\(endpoint)", "bytes": "\(data.count)"])
                        throw Failure(description: "IGDB answered malformed JSON to \(endpoint)")
                    }
                    return json
                case 401 where !renewed:
                    renewed = true
                    tokens.clear()
                    _ = try await accessToken(forceNew: true)
                    continue
                case 429, 500...599:
                    logger.warning("IGDB busy, retrying", metadata: ["status": "\(status)", "attempt": "\(attempt)"])
                default:
                    throw Failure(
                        description:
                            "IGDB answered \(status) to \(endpoint): \(String(decoding: data.prefix(200), as: UTF8.self))"
                    )
                }
            } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
                ProviderCalls.count("igdb", status: "timeout", metrics)
                logger.warning("IGDB timed out, retrying", metadata: ["attempt": "\(attempt)"])
            }
            if attempt < maxAttempts {
                try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
                delay = min(delay * 2, 8)
            }
        }
        throw Failure(description: "IGDB still busy after \(maxAttempts) attempts", retryAfter: delay)
    }
}
