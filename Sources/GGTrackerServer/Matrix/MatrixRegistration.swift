import Foundation
import GGTrackerCore

/// The application service registration file a homeserver loads, from the configuration.
/// https://spec.matrix.org/v1.19/application-service-api/#registration
package enum MatrixRegistration {
    /// Returns the YAML and whether tokens had to be made up (the operator must then configure them).
    package static func yaml(config: AppConfig) -> (text: String, generatedTokens: Bool) {
        let asToken = config.matrixASToken ?? randomToken()
        let hsToken = config.matrixHSToken ?? randomToken()
        let url = config.publicURL ?? "http://\(config.host):\(config.port)"
        let localpart = config.matrixBotLocalpart
        let regex = "@" + NSRegularExpression.escapedPattern(for: localpart) + ":.*"
        let text = """
            # GGTracker application service registration. Point the homeserver's app_service_config_files at this file.
            id: ggtracker
            url: "\(url)"
            as_token: "\(asToken)"
            hs_token: "\(hsToken)"
            sender_localpart: "\(localpart)"
            rate_limited: false
            namespaces:
              users:
                - exclusive: true
                  regex: "\(regex.replacingOccurrences(of: "\\", with: "\\\\"))"
              aliases: []
              rooms: []

            """
        return (text, config.matrixASToken == nil || config.matrixHSToken == nil)
    }

    static func randomToken() -> String { randomHex(bytes: 32) }
}
