import AsyncHTTPClient
import Foundation
import GGTrackerCore
import GGTrackerStorage
import Logging
import Metrics
import NIOCore

/// Giant Bomb's API: `api_key` and `format=json` on every request, a descriptive User-Agent (a missing or generic one
/// is refused with 403), answers inside an envelope whose `status_code` 1 means OK, and at most 200 requests per
/// resource per hour. https://www.giantbomb.com/api/documentation/
package struct GiantBombClient: CatalogProvider {
    package var apiBase: String
    package var apiKey: String
    package var http: HTTPClient
    package var logger: Logger
    package var budget: HourlyBudget
    /// Where request counts by status go.
    package var metrics: any MetricsFactory = NOOPMetricsHandler.instance

    package var name: String { "giantbomb" }
    package static let userAgent = "GGTracker/0.1.0 (game-tracking chat bot; https://github.com/ggtracker)"

    package init(
        apiBase: String, apiKey: String, http: HTTPClient = .shared, logger: Logger,
        budget: HourlyBudget = HourlyBudget(limit: 200)
    ) {
        self.apiBase = apiBase
        self.apiKey = apiKey
        self.http = http
        self.logger = logger
        self.budget = budget
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// What a search result has: the list-level fields of a game.
    static let searchFields =
        "guid,id,name,deck,original_release_date,expected_release_year,image,platforms,original_game_rating,site_detail_url,date_last_updated"
    /// What a game's own resource adds: its companies, genres and themes.
    static let detailFields = searchFields + ",genres,themes,developers,publishers"

    /// One request to a resource; returns the envelope's `results`.
    func get(_ resource: String, path: String, query: [String: String]) async throws -> Any {
        if let wait = budget.take(resource) {
            throw Failure(
                description:
                    "the Giant Bomb budget of 200 requests an hour for \(resource) is used up; try again in \(Int(wait)) s"
            )
        }
        var components = URLComponents(string: "\(apiBase)/\(path)")!
        components.queryItems =
            [URLQueryItem(name: "api_key", value: apiKey), URLQueryItem(name: "format", value: "json")]
            + query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        var request = HTTPClientRequest(url: components.string!)
        request.headers.add(name: "User-Agent", value: Self.userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await http.execute(request, timeout: .seconds(15))
        ProviderCalls.count("giantbomb", status: "\(response.status.code)", metrics)
        let body = try await response.body.collect(upTo: 16 << 20)
        let data = Data(body.readableBytesView)
        guard let envelope = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "Giant Bomb answered \(response.status.code) without JSON")
        }
        let status = envelope["status_code"] as? Int ?? 0
        guard status == 1 else {
            let error = envelope["error"] as? String ?? "unknown error"
            throw Failure(description: "Giant Bomb answered status \(status) (\(error))")
        }
        return envelope["results"] ?? []
    }

    package func search(_ query: String, limit: Int) async throws -> [CatalogRecord] {
        let results = try await get(
            "search", path: "search/",
            query: [
                "query": query, "resources": "game", "limit": String(min(max(limit, 1), 10)),
                "field_list": Self.searchFields,
            ])
        return (results as? [[String: Any]] ?? []).compactMap(Self.record(from:))
    }

    package func game(_ ref: GameRef) async throws -> CatalogRecord? {
        guard ref.provider == "gb" else { return nil }
        return try await game(guid: ref.id)
    }

    /// Search results carry no companies, genres or themes: a game found by a search gets them from its page.
    package func lacksDetails(_ game: Game) -> Bool {
        game.ref.provider == "gb" && game.developers.isEmpty && game.publishers.isEmpty && game.genres.isEmpty
            && game.themes.isEmpty
    }

    /// `GET /game/{guid}/`: one game's details.
    package func game(guid: String) async throws -> CatalogRecord? {
        let result = try await get("game", path: "game/\(guid)/", query: ["field_list": Self.detailFields])
        return (result as? [String: Any]).flatMap(Self.record(from:))
    }

    /// Maps a Giant Bomb game to the catalog's record; its reference is `gb:{guid}`.
    static func record(from object: [String: Any]) -> CatalogRecord? {
        guard let name = object["name"] as? String, !name.isEmpty,
            let guid = (object["guid"] as? String) ?? (object["id"] as? Int).map({ "3030-\($0)" })
        else { return nil }
        var game = Game(id: 0, ref: GameRef(provider: "gb", id: guid), name: name)
        game.summary = object["deck"] as? String
        if let date = object["original_release_date"] as? String {
            game.releaseDate = Self.date(date)
        } else if let year = object["expected_release_year"] as? Int {
            game.releaseDate = Calendar.utc.date(from: DateComponents(year: year, month: 1, day: 1))
            game.releaseYearOnly = true
        }
        func names(_ key: String) -> [String] {
            (object[key] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        game.platforms = names("platforms")
        game.genres = names("genres")
        game.themes = names("themes")
        game.developers = names("developers")
        game.publishers = names("publishers")
        // "ESRB: M" → "ESRB M"
        let ratings = names("original_game_rating").map { $0.replacingOccurrences(of: ": ", with: " ") }
        game.ageRating = ratings.first { $0.hasPrefix("ESRB") } ?? ratings.first
        game.isMature = ratings.contains { ["ESRB M", "ESRB AO", "PEGI 18"].contains($0) }
        if let image = object["image"] as? [String: Any] {
            game.coverImageID = (image["super_url"] as? String) ?? (image["medium_url"] as? String)
        }
        game.url = object["site_detail_url"] as? String
        let updated = (object["date_last_updated"] as? String).flatMap(Self.date)
        return CatalogRecord(
            game: game, keywords: TextNormalizer.keywords(for: name), popularity: 0.5, updatedAt: updated)
    }

    /// Giant Bomb writes dates as `2017-02-24` or `2017-02-24 00:00:00`, in UTC.
    static func date(_ text: String) -> Date? {
        let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return Calendar.utc.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }
}

/// Requests per resource in a sliding hour; `take` answers how long to wait when the budget is spent.
package final class HourlyBudget: @unchecked Sendable {
    private let lock = NSLock()
    private var used: [String: [Date]] = [:]
    package let limit: Int

    package init(limit: Int) { self.limit = limit }

    /// Nil when the request may go now (and counts it); otherwise the seconds until one may.
    package func take(_ resource: String, now: Date = Date()) -> TimeInterval? {
        lock.withLock {
            var times = used[resource, default: []].filter { now.timeIntervalSince($0) < 3600 }
            defer { used[resource] = times }
            if times.count >= limit { return 3600 - now.timeIntervalSince(times[0]) }
            times.append(now)
            return nil
        }
    }
}
