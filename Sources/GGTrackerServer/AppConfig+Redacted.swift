import Foundation
import GGTrackerCore

/// How the settings print: each secret only as whether it is set, a database URL without its password.
extension AppConfig: Redacting {
    package var description: String {
        func secret(_ value: Any?) -> String { value == nil ? "unset" : "set" }
        let fields: [(String, String)] = [
            ("host", host), ("port", "\(port)"), ("database", databaseName), ("publicURL", publicURL ?? "unset"),
            ("catalog", catalog.rawValue), ("discordPublicKey", secret(discordPublicKey)),
            ("discordApplicationID", discordApplicationID ?? "unset"), ("discordBotToken", secret(discordBotToken)),
            ("discordAPIBase", discordAPIBase), ("matrixHomeserverURL", matrixHomeserverURL ?? "unset"),
            ("matrixASToken", secret(matrixASToken)), ("matrixHSToken", secret(matrixHSToken)),
            ("matrixBotLocalpart", matrixBotLocalpart), ("slackSigningSecret", secret(slackSigningSecret)),
            ("slackResponseBase", slackResponseBase), ("slackBotToken", secret(slackFiles.botToken)),
            ("slackAPIBase", slackFiles.apiBase), ("slackFilesBase", slackFiles.filesBase),
            ("igdbClientID", igdbClientID ?? "unset"),
            ("igdbClientSecret", secret(igdbClientSecret)), ("igdbAPIBase", igdbAPIBase),
            ("twitchOAuthBase", twitchOAuthBase), ("giantBombAPIKey", secret(giantBombAPIKey)),
            ("giantBombAPIBase", giantBombAPIBase), ("steamAPIKey", secret(steamAPIKey)),
            ("steamAPIBase", steamAPIBase), ("discordCDNBase", discordCDNBase), ("adminIDs", "\(adminIDs.count)"),
        ]
        return "AppConfig(" + fields.map { "\($0): \($1)" }.joined(separator: ", ") + ")"
    }
}

extension AppServices: Redacting {
    package var description: String { "AppServices(\(config))" }
}

extension Maintenance: CustomStringConvertible {
    package var description: String { "Maintenance" }
}
