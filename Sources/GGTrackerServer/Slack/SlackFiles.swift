import AsyncHTTPClient
import Foundation
import GGTrackerCore
import NIOCore

/// Where `/import file` on Slack finds the file it takes: the app's bot token (with the `files:read` scope), the Web
/// API's address and the host its private file addresses point at (the token is sent nowhere else).
package struct SlackFileSettings: Sendable {
    package var botToken: String?
    package var apiBase = "https://slack.com/api"
    package var filesBase = "https://files.slack.com/"

    package init() {}
}

/// A slash command carries no file: `/gg import file` takes the newest CSV its sender shared in the channel
/// lately, listed by the Web API's `files.list`. https://api.slack.com/methods/files.list
struct SlackFiles {
    var settings: SlackFileSettings
    var token: String
    var http: HTTPClient = .shared

    /// How far back a shared file is looked for.
    static let window: TimeInterval = 24 * 3600

    enum Lookup: Equatable {
        case found(Attachment)
        case none
        /// Slack did not list the files; the reason, for the player.
        case failed(String)
    }

    struct FilesList: Decodable {
        var ok: Bool
        var error: String?
        var files: [File]?

        struct File: Decodable {
            var name: String?
            var filetype: String?
            var size: Int?
            var created: Int?
            var urlPrivateDownload: String?

            enum CodingKeys: String, CodingKey {
                case name, filetype, size, created
                case urlPrivateDownload = "url_private_download"
            }

            var isCSV: Bool { filetype == "csv" || name?.lowercased().hasSuffix(".csv") == true }
        }
    }

    /// The newest CSV `user` shared in `channel` since `since`.
    func latestCSV(from user: String, in channel: String, since: Date) async -> Lookup {
        var components = URLComponents(string: settings.apiBase + "/files.list")
        components?.queryItems = [
            URLQueryItem(name: "channel", value: channel), URLQueryItem(name: "user", value: user),
            URLQueryItem(name: "ts_from", value: String(Int(since.timeIntervalSince1970))),
            URLQueryItem(name: "count", value: "20"),
        ]
        guard let url = components?.string else { return .failed("Slack's address is not set up right here.") }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let list: FilesList
        do {
            let response = try await http.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            if response.status.code == 429 {
                return .failed("Slack is limiting requests right now. Try again in a minute.")
            }
            list = try JSONDecoder().decode(FilesList.self, from: Data(buffer: body))
        } catch {
            return .failed("Slack did not list your files (it may be down). Try again in a few minutes.")
        }
        guard list.ok else {
            switch list.error {
            case "missing_scope":
                return .failed("This app may not read shared files: an admin needs to add the files:read scope.")
            case let error? where SlackAPIError.refusedToken.contains(error):
                return .failed("Slack refused this app's token: an admin needs to check SLACK_BOT_TOKEN.")
            case "ratelimited":
                return .failed("Slack is limiting requests right now. Try again in a minute.")
            default:
                return .failed("Slack did not list your files (\(list.error ?? "an error")). Try again later.")
            }
        }
        let newest = (list.files ?? []).filter { $0.isCSV && $0.urlPrivateDownload != nil }
            .max { ($0.created ?? 0) < ($1.created ?? 0) }
        guard let newest, let address = newest.urlPrivateDownload else { return .none }
        return .found(Attachment(url: address, filename: newest.name ?? "export.csv", size: newest.size ?? 0))
    }
}
