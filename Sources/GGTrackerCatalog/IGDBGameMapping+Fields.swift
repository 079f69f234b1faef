import Foundation

extension IGDBGameMapping {
    /// The top-level fields of a game in IGDB's JSON shape that `record(from:)` reads.
    package enum Key: String, CaseIterable, Sendable {
        case id
        case igdbID = "igdb_id"
        case name, slug, summary, url, themes, genres, platforms, developers, publishers, cover
        case firstReleaseDate = "first_release_date"
        case releaseDate = "release_date"
        case releaseDates = "release_dates"
        case modes = "game_modes"
        case engines = "game_engines"
        case involvedCompanies = "involved_companies"
        case aggregatedRating = "aggregated_rating"
        case aggregatedRatingCount = "aggregated_rating_count"
        case totalRatingCount = "total_rating_count"
        case coverURL = "cover_url"
        case ageRatings = "age_ratings"
        case gameType = "game_type"
        case updatedAt = "updated_at"
        case timeToBeat = "time_to_beat"
        case externalGames = "external_games"
        case externalIDs = "external_ids"
        case parentGame = "parent_game"
        case versionParent = "version_parent"
    }

    /// What `record(from:)` reads of a game, each field already in the type it is used as: filled from a parsed
    /// JSON object, or straight from a line's bytes by `JSONLineReader.igdbFields` (the same values either way).
    package struct Fields {
        var id: Int?
        var igdbID: Int?
        var name: String?
        var slug: String?
        var summary: String?
        var url: String?
        var firstReleaseDate: Double?
        var releaseDate: Double?
        var updatedAt: Double?
        var aggregatedRating: Double?
        var aggregatedRatingCount: Int?
        var totalRatingCount: Int?
        var genres: [String] = []
        var platforms: [String] = []
        var modes: [String] = []
        var themes: [String] = []
        var engines: [String] = []
        var developers: [String] = []
        var publishers: [String] = []
        /// `involved_companies`; empty unless every item is an object.
        var companies: [Company] = []
        /// `cover.image_id`.
        var coverImageID: String?
        var coverURL: String?
        /// `game_type.type`.
        var gameType: String?
        // Rare fields, kept as parsed.
        var releaseDates: Any?
        var timeToBeat: Any?
        var ageRatings: Any?
        /// `parent_game.age_ratings` (of a DLC or expansion) and `version_parent.age_ratings` (of an edition).
        var parentAgeRatings: [Any] = []
        /// Steam's app ids in `external_games` and in `external_ids`.
        var externalGames: [Int64] = []
        var externalIDs: [Int64] = []

        struct Company: Equatable {
            /// `company.name`.
            var name: String?
            var developer = false
            var publisher = false
        }

        init() {}

        init(_ object: [String: Any]) {
            for (key, value) in object {
                if let key = Key(rawValue: key) { set(key, value) }
            }
        }

        /// Stores a field's parsed value.
        mutating func set(_ key: Key, _ value: Any) {
            switch key {
            case .id: id = int(value)
            case .igdbID: igdbID = int(value)
            case .name: name = value as? String
            case .slug: slug = value as? String
            case .summary: summary = value as? String
            case .url: url = value as? String
            case .coverURL: coverURL = value as? String
            case .firstReleaseDate: firstReleaseDate = double(value)
            case .releaseDate: releaseDate = double(value)
            case .updatedAt: updatedAt = double(value)
            case .aggregatedRating: aggregatedRating = double(value)
            case .aggregatedRatingCount: aggregatedRatingCount = int(value)
            case .totalRatingCount: totalRatingCount = int(value)
            case .genres: genres = names(value)
            case .platforms: platforms = names(value)
            case .modes: modes = names(value)
            case .themes: themes = names(value)
            case .engines: engines = names(value)
            case .developers: developers = names(value)
            case .publishers: publishers = names(value)
            case .involvedCompanies:
                companies = (value as? [[String: Any]] ?? []).map { company in
                    Company(
                        name: (company["company"] as? [String: Any])?["name"] as? String,
                        developer: company["developer"] as? Bool == true,
                        publisher: company["publisher"] as? Bool == true)
                }
            case .cover: coverImageID = (value as? [String: Any])?["image_id"] as? String
            case .gameType: gameType = (value as? [String: Any])?["type"] as? String
            case .releaseDates: releaseDates = value
            case .timeToBeat: timeToBeat = value
            case .ageRatings: ageRatings = value
            case .parentGame, .versionParent:
                if let ratings = (value as? [String: Any])?["age_ratings"] { parentAgeRatings.append(ratings) }
            case .externalGames: externalGames = steamAppIDs(value)
            case .externalIDs: externalIDs = steamAppIDs(value)
            }
        }
    }
}
