import Foundation
import GGTrackerCore

/// How the settings print. Anything may print a value it holds (a log line, a service's description at start-up,
/// `dump`), so the configuration never shows its secrets: only whether each is set, and a database URL without its
/// password.
extension AppConfig: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String {
        func secret(_ value: Any?) -> String { value == nil ? "unset" : "set" }
        let fields: [(String, String)] = [
            ("host", host), ("port", "\(port)"), ("database", databaseName), ("publicURL", publicURL ?? "unset"),
            ("catalog", catalog.rawValue), ("discordPublicKey", secret(discordPublicKey)),
            ("discordApplicationID", discordApplicationID ?? "unset"), ("discordBotToken", secret(discordBotToken)),
            ("discordAPIBase", discordAPIBase), ("matrixHomeserverURL", matrixHomeserverURL ?? "unset"),
            ("matrixASToken", secret(matrixASToken)), ("matrixHSToken", secret(matrixHSToken)),
            ("matrixBotLocalpart", matrixBotLocalpart), ("slackSigningSecret", secret(slackSigningSecret)),
            ("slackResponseBase", slackResponseBase), ("igdbClientID", igdbClientID ?? "unset"),
            ("igdbClientSecret", secret(igdbClientSecret)), ("igdbAPIBase", igdbAPIBase),
            ("twitchOAuthBase", twitchOAuthBase), ("giantBombAPIKey", secret(giantBombAPIKey)),
            ("giantBombAPIBase", giantBombAPIBase), ("adminIDs", "\(adminIDs.count)"),
        ]
        return "AppConfig(" + fields.map { "\($0): \($1)" }.joined(separator: ", ") + ")"
    }

    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["settings": description]) }
}

extension AppServices: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String { "AppServices(\(config))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["config": config]) }
}

extension Maintenance: CustomStringConvertible {
    package var description: String { "Maintenance" }
}
