import Foundation
import Testing

@testable import GGTrackerServer

@Suite("Configuration")
struct ConfigTests {
    func temporaryFile(_ text: String) throws -> String {
        let path = Scratch.path("cfg.toml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func defaultsNeedNoConfiguration() throws {
        let config = try AppConfig.load(file: nil, environment: [:])
        #expect(config.host == "127.0.0.1" && config.port == 8080)
        #expect(config.databasePath == "data/ggtracker.sqlite")
        #expect(config.catalog == .offline)
        #expect(config.discordAPIBase == "https://discord.com/api/v10")
    }

    @Test func fileThenEnvironmentThenFlags() throws {
        let path = try temporaryFile(
            """
            [server]
            port = 9000
            host = "0.0.0.0"
            database = "/tmp/from-file.sqlite"
            admin_ids = ["discord:1", "discord:2"]
            """)
        let fromFile = try AppConfig.load(file: path, environment: [:])
        #expect(fromFile.port == 9000 && fromFile.host == "0.0.0.0")
        #expect(
            fromFile.isConfiguredAdmin(platform: "discord", userID: "1")
                && fromFile.isConfiguredAdmin(platform: "discord", userID: "2"))
        let fromEnv = try AppConfig.load(file: path, environment: ["GGTRACKER_PORT": "9100"])
        #expect(fromEnv.port == 9100 && fromEnv.host == "0.0.0.0")
        let fromFlag = try AppConfig.load(
            file: path, environment: ["GGTRACKER_PORT": "9100"], overrides: ["GGTRACKER_PORT": "9200"])
        #expect(fromFlag.port == 9200)
    }

    @Test(arguments: [
        (["DISCORD_PUBLIC_KEY": "abc"], "DISCORD_PUBLIC_KEY must be 64 hex characters"),
        (["GGTRACKER_PORT": "99999"], "GGTRACKER_PORT must be a port number from 1 to 65535"),
        (["GGTRACKER_CATALOG": "steam"], "GGTRACKER_CATALOG must be one of offline, igdb, giantbomb"),
        (["DISCORD_API_BASE": "not a url"], "DISCORD_API_BASE must be an http:// or https:// URL"),
        (["GGTRACKER_CATALOG": "igdb"], "GGTRACKER_CATALOG=igdb needs IGDB_CLIENT_ID"),
        (["DISCORD_APPLICATION_ID": "abc"], "DISCORD_APPLICATION_ID must be the application's numeric id"),
        (["GGTRACKER_MAX_CONNECTIONS": "0"], "GGTRACKER_MAX_CONNECTIONS must be a whole number of connections"),
        (["GGTRACKER_UNVERIFIED_BODY_MB": "lots"], "GGTRACKER_UNVERIFIED_BODY_MB must be a whole number of megabytes"),
        (["GGTRACKER_UNVERIFIED_BODY_MB": "0"], "GGTRACKER_UNVERIFIED_BODY_MB must be a whole number of megabytes"),
        (["SLACK_RESPONSE_BASE": "hooks.slack.com"], "SLACK_RESPONSE_BASE must be an http:// or https:// URL"),
        (["SLACK_API_BASE": "slack.com/api"], "SLACK_API_BASE must be an http:// or https:// URL"),
        (["SLACK_FILES_BASE": "ftp://files.slack.com"], "SLACK_FILES_BASE must be an http:// or https:// URL"),
        (["GGTRACKER_ADMIN_IDS": "discord:1, 2"], "GGTRACKER_ADMIN_IDS entries need their platform"),
    ])
    func badValuesFailFastNamingTheSetting(environment: [String: String], message: String) throws {
        #expect {
            try AppConfig.load(file: nil, environment: environment)
        } throws: { error in
            (error as? AppConfig.Invalid)?.description.contains(message) == true
        }
    }

    @Test func aValidPublicKeyIsAccepted() throws {
        let config = try AppConfig.load(
            file: nil,
            environment: ["DISCORD_PUBLIC_KEY": String(repeating: "ab", count: 16) + String(repeating: "cd", count: 16)]
        )
        #expect(config.discordPublicKey != nil)
    }

    @Test func limitsAndTheSlackResponseBaseAreRead() throws {
        let config = try AppConfig.load(
            file: nil,
            environment: [
                "GGTRACKER_MAX_CONNECTIONS": "64", "GGTRACKER_UNVERIFIED_BODY_MB": "4",
                "SLACK_RESPONSE_BASE": "https://hooks.example.org/", "SLACK_BOT_TOKEN": "xoxb-1",
                "SLACK_API_BASE": "https://slack.example.org/api/", "SLACK_FILES_BASE": "https://files.example.org",
            ])
        #expect(config.maxConnections == 64 && config.unverifiedBodyBytes == 4 << 20)
        #expect(config.slackResponseBase == "https://hooks.example.org/")
        #expect(config.slackFiles.botToken == "xoxb-1" && config.slackFiles.apiBase == "https://slack.example.org/api")
        #expect(config.slackFiles.filesBase == "https://files.example.org/")
        let defaults = try AppConfig.load(file: nil, environment: [:]).slackFiles
        #expect(defaults.botToken == nil && defaults.apiBase == "https://slack.com/api")
        #expect(defaults.filesBase == "https://files.slack.com/")
    }

    @Test func theCommittedExampleConfigIsValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let config = try AppConfig.load(
            file: root.appendingPathComponent("config/ggtracker.example.toml").path, environment: [:])
        #expect(config.port == 8080 && config.catalog == .offline && config.matrixBotLocalpart == "ggtracker")
        #expect(config.steamAPIBase == "https://api.steampowered.com" && config.steamAPIKey == nil)
        #expect(config.discordCDNBase == "https://cdn.discordapp.com/")
    }

    @Test func theReleaseAlertIntervalIsSecondsAndZeroTurnsItOff() throws {
        #expect(try AppConfig.load(file: nil, environment: [:]).alertInterval == .seconds(3600))
        #expect(
            try AppConfig.load(file: nil, environment: ["GGTRACKER_ALERT_INTERVAL": "0"]).alertInterval
                == .zero)
        #expect {
            try AppConfig.load(file: nil, environment: ["GGTRACKER_ALERT_INTERVAL": "hourly"])
        } throws: { error in
            (error as? AppConfig.Invalid)?.description.contains("GGTRACKER_ALERT_INTERVAL must be a whole number")
                == true
        }
    }

    @Test func invalidTOMLNamesTheFile() throws {
        let path = try temporaryFile("[server\nport = ")
        #expect {
            try AppConfig.load(file: path, environment: [:])
        } throws: { error in
            (error as? AppConfig.Invalid)?.description.contains("is not valid TOML") == true
        }
    }
}
