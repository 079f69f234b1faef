@preconcurrency import Crypto
import Foundation
import GGTrackerCore
import GGTrackerStorage
import TOMLKit

/// Every setting of the server, built and validated once at start-up: the TOML file, then the environment,
/// then command-line flags, each overriding the one before.
package struct AppConfig: Sendable {
    package enum CatalogProvider: String, Sendable, CaseIterable {
        case offline, igdb, giantbomb
    }

    package var host = "127.0.0.1"
    package var port = 8080
    /// A SQLite file, or a `postgres://` URL when several replicas share one PostgreSQL database.
    package var databasePath = "data/ggtracker.sqlite"
    /// The database for messages and logs: a PostgreSQL URL without its password.
    package var databaseName: String { (try? DatabaseLocation(databasePath))?.description ?? databasePath }
    package var publicURL: String?
    package var catalog: CatalogProvider = .offline
    package var discordPublicKey: Curve25519.Signing.PublicKey?
    package var discordApplicationID: String?
    package var discordBotToken: String?
    package var discordAPIBase = "https://discord.com/api/v10"
    package var matrixHomeserverURL: String?
    package var matrixASToken: String?
    package var matrixHSToken: String?
    package var matrixBotLocalpart = "ggtracker"
    package var slackSigningSecret: String?
    /// Where a Slack `response_url` may point: anything else in a (signed) press is not posted to.
    package var slackResponseBase = "https://hooks.slack.com/"
    /// How long posting a button's result to its `response_url` may take (in the background, after the press is
    /// acknowledged).
    package var slackResponseTimeout: Duration = .seconds(10)
    /// What `/import file` on Slack needs to find and download a CSV a member shared; without a bot token, it says
    /// how the server's operator can import the file instead.
    package var slackFiles = SlackFileSettings()
    package var igdbClientID: String?
    package var igdbClientSecret: String?
    package var igdbAPIBase = "https://api.igdb.com/v4"
    package var twitchOAuthBase = "https://id.twitch.tv/oauth2"
    package var giantBombAPIKey: String?
    package var giantBombAPIBase = "https://www.giantbomb.com/api"
    package var steamAPIKey: String?
    package var steamAPIBase = "https://api.steampowered.com"
    /// Where files sent with a Discord command may be downloaded from.
    package var discordCDNBase = "https://cdn.discordapp.com/"
    /// Player ids (`discord:123`, or a bare platform id) that are admins everywhere.
    package var adminIDs: Set<String> = []
    /// How long a Discord or Slack command may run before it is acknowledged and its answer follows (both allow 3
    /// seconds).
    package var deferAfter: Duration = .milliseconds(2500)
    /// Commands a minute per user and per server before the friendly "slow down" answer.
    package var limits = FloodGuard.Limits()
    /// Connections served at once; more wait until one closes.
    package var maxConnections = 512
    /// Bytes of request bodies read before their signature is checked, for all requests together.
    package var unverifiedBodyBytes = 16 << 20
    /// How often `serve` checks for wishlisted games released today (0: never; `ggtracker alerts check` still can).
    package var alertInterval: Duration = .seconds(3600)

    package init() {}

    /// A setting that cannot be used, with the words the operator will read.
    package struct Invalid: Error, CustomStringConvertible, Equatable {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// Builds the configuration. `file` nil means `config/ggtracker.toml` when it exists.
    /// `overrides` are flags, keyed by environment variable name.
    package static func load(
        file: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        overrides: [String: String] = [:]
    ) throws -> AppConfig {
        var values: [String: String] = [:]  // keyed by environment variable name
        let path = file ?? "config/ggtracker.toml"
        if FileManager.default.fileExists(atPath: path) {
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw Invalid("cannot read the config file \(path): \(error.localizedDescription)")
            }
            let table: TOMLTable
            do { table = try TOMLTable(string: text) } catch {
                throw Invalid("the config file \(path) is not valid TOML: \(error)")
            }
            for setting in ConfigSetting.all {
                guard let section = table[setting.table]?.table, let value = section[setting.key] else { continue }
                if let s = value.string {
                    values[setting.env] = s
                } else if let i = value.int {
                    values[setting.env] = String(i)
                } else if let array = value.array {
                    values[setting.env] = array.compactMap { $0.string }.joined(separator: ",")
                } else {
                    throw Invalid("\(setting.table).\(setting.key) in \(path) must be a string")
                }
            }
        } else if file != nil {
            throw Invalid("the config file \(path) does not exist")
        }
        for setting in ConfigSetting.all {
            if let value = environment[setting.env], !value.isEmpty { values[setting.env] = value }
            if setting.isSecret, let file = environment[setting.env + "_FILE"], !file.isEmpty {
                do {
                    values[setting.env] = try String(contentsOfFile: file, encoding: .utf8)
                } catch {
                    throw Invalid("\(setting.env)_FILE: cannot read \(file): \(error.localizedDescription)")
                }
            }
        }
        for (key, value) in overrides { values[key] = value }
        return try AppConfig(values: values)
    }

    init(values: [String: String]) throws {
        func text(_ env: String) -> String? {
            values[env].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func url(_ env: String) throws -> String? {
            guard let value = text(env) else { return nil }
            guard let parsed = URL(string: value), let scheme = parsed.scheme, ["http", "https"].contains(scheme),
                parsed.host != nil
            else { throw Invalid("\(env) must be an http:// or https:// URL (got “\(value)”)") }
            return value.hasSuffix("/") ? String(value.dropLast()) : value
        }
        if let host = text("GGTRACKER_HOST") { self.host = host }
        if let port = text("GGTRACKER_PORT") {
            guard let number = Int(port), (1...65535).contains(number) else {
                throw Invalid("GGTRACKER_PORT must be a port number from 1 to 65535 (got “\(port)”)")
            }
            self.port = number
        }
        if let database = text("GGTRACKER_DATABASE") {
            do {
                switch try DatabaseLocation(database) {
                case .sqlite(let path): self.databasePath = path
                case .postgres: self.databasePath = database
                }
            } catch {
                throw Invalid("GGTRACKER_DATABASE: \(error)")
            }
        }
        self.publicURL = try url("GGTRACKER_PUBLIC_URL")
        if let provider = text("GGTRACKER_CATALOG") {
            guard let value = CatalogProvider(rawValue: provider.lowercased()) else {
                throw Invalid("GGTRACKER_CATALOG must be one of offline, igdb, giantbomb (got “\(provider)”)")
            }
            self.catalog = value
        }
        if let key = text("DISCORD_PUBLIC_KEY") {
            guard key.count == 64, let bytes = Hex.bytes(key),
                let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: bytes)
            else { throw Invalid("DISCORD_PUBLIC_KEY must be 64 hex characters (the application's public key)") }
            self.discordPublicKey = publicKey
        }
        if let id = text("DISCORD_APPLICATION_ID") {
            guard id.allSatisfy(\.isNumber) else {
                throw Invalid("DISCORD_APPLICATION_ID must be the application's numeric id (got “\(id)”)")
            }
            self.discordApplicationID = id
        }
        self.discordBotToken = text("DISCORD_BOT_TOKEN")
        if let base = try url("DISCORD_API_BASE") { self.discordAPIBase = base }
        self.matrixHomeserverURL = try url("MATRIX_HOMESERVER_URL")
        self.matrixASToken = text("MATRIX_AS_TOKEN")
        self.matrixHSToken = text("MATRIX_HS_TOKEN")
        if let localpart = text("MATRIX_BOT_LOCALPART") {
            guard localpart.allSatisfy({ $0.isLowercase || $0.isNumber || "._=-/".contains($0) }) else {
                throw Invalid("MATRIX_BOT_LOCALPART may hold only a-z, 0-9 and ._=-/ (got “\(localpart)”)")
            }
            self.matrixBotLocalpart = localpart
        }
        self.slackSigningSecret = text("SLACK_SIGNING_SECRET")
        if let base = try url("SLACK_RESPONSE_BASE") { self.slackResponseBase = base + "/" }
        self.slackFiles.botToken = text("SLACK_BOT_TOKEN")
        if let base = try url("SLACK_API_BASE") { self.slackFiles.apiBase = base }
        if let base = try url("SLACK_FILES_BASE") { self.slackFiles.filesBase = base + "/" }
        self.igdbClientID = text("IGDB_CLIENT_ID")
        self.igdbClientSecret = text("IGDB_CLIENT_SECRET")
        if let base = try url("IGDB_API_BASE") { self.igdbAPIBase = base }
        if let base = try url("TWITCH_OAUTH_BASE") { self.twitchOAuthBase = base }
        self.giantBombAPIKey = text("GIANTBOMB_API_KEY")
        if let base = try url("GIANTBOMB_API_BASE") { self.giantBombAPIBase = base }
        self.steamAPIKey = text("STEAM_API_KEY")
        if let base = try url("STEAM_API_BASE") { self.steamAPIBase = base }
        if let base = try url("DISCORD_CDN_BASE") { self.discordCDNBase = base + "/" }
        if let ids = text("GGTRACKER_ADMIN_IDS") {
            self.adminIDs = Set(
                ids.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            // An id is a platform's: a bare one would make an admin of whoever has that id on any platform.
            let platforms = ["discord", "matrix", "slack", "cli"]
            if let bare = adminIDs.first(where: { id in !platforms.contains { id.hasPrefix($0 + ":") } }) {
                throw Invalid(
                    "GGTRACKER_ADMIN_IDS entries need their platform, as in discord:80351110224678912, matrix:@ada:example.org or slack:U012AB3CD (got “\(bare)”)"
                )
            }
        }
        if let value = text("GGTRACKER_MAX_CONNECTIONS") {
            guard let number = Int(value), number >= 1 else {
                throw Invalid(
                    "GGTRACKER_MAX_CONNECTIONS must be a whole number of connections, 1 or more (got “\(value)”)")
            }
            self.maxConnections = number
        }
        if let value = text("GGTRACKER_UNVERIFIED_BODY_MB") {
            guard let number = Int(value), (1...1024).contains(number) else {
                throw Invalid(
                    "GGTRACKER_UNVERIFIED_BODY_MB must be a whole number of megabytes from 1 to 1024 (got “\(value)”)")
            }
            self.unverifiedBodyBytes = number << 20
        }
        if let value = text("GGTRACKER_ALERT_INTERVAL") {
            guard let seconds = Int(value), seconds >= 0 else {
                throw Invalid(
                    "GGTRACKER_ALERT_INTERVAL must be a whole number of seconds, 0 to turn the check off (got “\(value)”)"
                )
            }
            self.alertInterval = .seconds(seconds)
        }
        for (env, keyPath) in [
            ("GGTRACKER_USER_RATE", \FloodGuard.Limits.userPerMinute),
            ("GGTRACKER_SERVER_RATE", \FloodGuard.Limits.serverPerMinute),
        ] {
            guard let value = text(env) else { continue }
            guard let number = Int(value), number >= 0 else {
                throw Invalid("\(env) must be a whole number of commands a minute, 0 for no limit (got “\(value)”)")
            }
            limits[keyPath: keyPath] = number
        }
        switch catalog {
        case .offline: break
        case .igdb:
            if igdbClientID == nil {
                throw Invalid("GGTRACKER_CATALOG=igdb needs IGDB_CLIENT_ID (a Twitch application's client id)")
            }
            if igdbClientSecret == nil { throw Invalid("GGTRACKER_CATALOG=igdb needs IGDB_CLIENT_SECRET") }
        case .giantbomb:
            if giantBombAPIKey == nil { throw Invalid("GGTRACKER_CATALOG=giantbomb needs GIANTBOMB_API_KEY") }
        }
    }

    /// Whether a platform user is a configured admin: `discord:123` or the bare id `123`.
    package func isConfiguredAdmin(platform: String, userID: String) -> Bool {
        adminIDs.contains("\(platform):\(userID)")
    }
}

/// One setting: its TOML path and its environment variable.
struct ConfigSetting {
    var table: String
    var key: String
    var env: String

    /// Settings that are secrets: each may instead be read from the file named by `NAME_FILE`
    /// (a Docker or systemd secret), so it never has to sit in the environment or the config file.
    static let secrets: Set<String> = [
        "DISCORD_BOT_TOKEN", "MATRIX_AS_TOKEN", "MATRIX_HS_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN",
        "IGDB_CLIENT_SECRET", "GIANTBOMB_API_KEY", "STEAM_API_KEY",
    ]
    var isSecret: Bool { Self.secrets.contains(env) }
}

extension ConfigSetting {
    /// Every setting, as the config file and the environment name it.
    static let all: [ConfigSetting] = [
        .init(table: "server", key: "host", env: "GGTRACKER_HOST"),
        .init(table: "server", key: "port", env: "GGTRACKER_PORT"),
        .init(table: "server", key: "database", env: "GGTRACKER_DATABASE"),
        .init(table: "server", key: "public_url", env: "GGTRACKER_PUBLIC_URL"),
        .init(table: "server", key: "admin_ids", env: "GGTRACKER_ADMIN_IDS"),
        .init(table: "catalog", key: "provider", env: "GGTRACKER_CATALOG"),
        .init(table: "discord", key: "public_key", env: "DISCORD_PUBLIC_KEY"),
        .init(table: "discord", key: "application_id", env: "DISCORD_APPLICATION_ID"),
        .init(table: "discord", key: "bot_token", env: "DISCORD_BOT_TOKEN"),
        .init(table: "discord", key: "api_base", env: "DISCORD_API_BASE"),
        .init(table: "matrix", key: "homeserver_url", env: "MATRIX_HOMESERVER_URL"),
        .init(table: "matrix", key: "as_token", env: "MATRIX_AS_TOKEN"),
        .init(table: "matrix", key: "hs_token", env: "MATRIX_HS_TOKEN"),
        .init(table: "matrix", key: "bot_localpart", env: "MATRIX_BOT_LOCALPART"),
        .init(table: "slack", key: "signing_secret", env: "SLACK_SIGNING_SECRET"),
        .init(table: "slack", key: "response_base", env: "SLACK_RESPONSE_BASE"),
        .init(table: "slack", key: "bot_token", env: "SLACK_BOT_TOKEN"),
        .init(table: "slack", key: "api_base", env: "SLACK_API_BASE"),
        .init(table: "slack", key: "files_base", env: "SLACK_FILES_BASE"),
        .init(table: "igdb", key: "client_id", env: "IGDB_CLIENT_ID"),
        .init(table: "igdb", key: "client_secret", env: "IGDB_CLIENT_SECRET"),
        .init(table: "igdb", key: "api_base", env: "IGDB_API_BASE"),
        .init(table: "igdb", key: "oauth_base", env: "TWITCH_OAUTH_BASE"),
        .init(table: "giantbomb", key: "api_key", env: "GIANTBOMB_API_KEY"),
        .init(table: "giantbomb", key: "api_base", env: "GIANTBOMB_API_BASE"),
        .init(table: "steam", key: "api_key", env: "STEAM_API_KEY"),
        .init(table: "steam", key: "api_base", env: "STEAM_API_BASE"),
        .init(table: "discord", key: "cdn_base", env: "DISCORD_CDN_BASE"),
        .init(table: "limits", key: "user_per_minute", env: "GGTRACKER_USER_RATE"),
        .init(table: "limits", key: "max_connections", env: "GGTRACKER_MAX_CONNECTIONS"),
        .init(table: "limits", key: "unverified_body_mb", env: "GGTRACKER_UNVERIFIED_BODY_MB"),
        .init(table: "limits", key: "server_per_minute", env: "GGTRACKER_SERVER_RATE"),
        .init(table: "alerts", key: "interval_seconds", env: "GGTRACKER_ALERT_INTERVAL"),
    ]
}
