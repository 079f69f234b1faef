import AsyncHTTPClient
import Foundation
import GGTrackerCore
import NIOCore

/// Reads libraries for imports: a Steam account's games through the Steam Web API
/// (`IPlayerService/GetOwnedGames`, with `ISteamUser/ResolveVanityURL` for a custom URL name), and files sent with
/// a command from the platform's file store. Every failure becomes an `ImportSourceError` the player can act on.
package struct LibrarySourcesClient: LibrarySources {
    /// `https://api.steampowered.com`, or a stand-in's address.
    package var steamAPIBase: String
    package var steamAPIKey: String?
    /// Where sent files may be downloaded from (Discord's CDN); other addresses are refused.
    package var attachmentBases: [String]
    /// The homeserver that keeps files sent to Matrix rooms (`mxc://` addresses), and the token it is called with.
    package var matrixMedia: (homeserver: String, token: String)?
    /// The host of Slack's private file addresses and the bot token they are downloaded with.
    package var slackFiles: (base: String, token: String)?
    package var http: HTTPClient = .shared
    package var timeout: TimeAmount = .seconds(20)

    package init(steamAPIBase: String, steamAPIKey: String?, attachmentBases: [String]) {
        self.steamAPIBase = steamAPIBase
        self.steamAPIKey = steamAPIKey
        self.attachmentBases = attachmentBases
    }

    /// What a player may give for their account: a SteamID64, a profile address or a custom URL name.
    enum Account: Equatable {
        case id(String)
        case vanity(String)

        /// `76561197960287930`, `gabelogannewell`, or a profile's address
        /// (`https://steamcommunity.com/profiles/76561197960287930/`, `steamcommunity.com/id/gabelogannewell`).
        init?(_ text: String) {
            var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            for prefix in ["https://", "http://", "www.", "steamcommunity.com/"]
            where text.lowercased().hasPrefix(prefix) {
                text.removeFirst(prefix.count)
            }
            let parts = text.split(separator: "/").map(String.init)
            if parts.count == 2, parts[0] == "profiles" || parts[0] == "id" { text = parts[1] }
            guard !text.isEmpty, text.count <= 64,
                text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-".contains($0)) })
            else { return nil }
            if text.count == 17, text.hasPrefix("7656119"), text.allSatisfy(\.isNumber) {
                self = .id(text)
            } else {
                self = .vanity(text)
            }
        }
    }

    package func steamGames(of account: String) async throws -> [ImportItem] {
        guard let key = steamAPIKey else {
            throw ImportSourceError("Steam imports are not set up here: an admin needs to set STEAM_API_KEY.")
        }
        guard let parsed = Account(account) else {
            throw ImportSourceError(
                "“\(Format.truncate(account, 60))” is not a Steam account: give your 17-digit SteamID64, your profile's address, or the name after steamcommunity.com/id/."
            )
        }
        let steamID: String
        switch parsed {
        case .id(let id): steamID = id
        case .vanity(let name):
            let json = try await get(
                "ISteamUser/ResolveVanityURL/v1/", ["key": key, "vanityurl": name, "url_type": "1"])
            let response = json["response"] as? [String: Any] ?? [:]
            guard (response["success"] as? NSNumber)?.intValue == 1, let id = response["steamid"] as? String else {
                throw ImportSourceError(
                    "Steam has no profile with the custom URL “\(name)”. Give the name after steamcommunity.com/id/ exactly, or your 17-digit SteamID64."
                )
            }
            steamID = id
        }
        let json = try await get(
            "IPlayerService/GetOwnedGames/v1/",
            [
                "key": key, "steamid": steamID, "include_appinfo": "1", "include_played_free_games": "1",
                "format": "json",
            ])
        // A private profile (or private game details) answers with an empty `response`.
        guard let response = json["response"] as? [String: Any], response["game_count"] != nil else {
            throw ImportSourceError(
                "Steam shows no games for this profile: its game details are private. In Steam, set Edit Profile → Privacy Settings → Game details to Public, then run the import again."
            )
        }
        let games = response["games"] as? [[String: Any]] ?? []
        return games.enumerated().compactMap { index, game -> ImportItem? in
            guard let appID = (game["appid"] as? NSNumber)?.int64Value else { return nil }
            var item = ImportItem(line: index + 1, name: game["name"] as? String ?? "Steam app \(appID)")
            item.steamAppID = appID
            let minutes = (game["playtime_forever"] as? NSNumber)?.doubleValue ?? 0
            if minutes > 0 { item.hours = (minutes / 6).rounded() / 10 }
            return item
        }
    }

    /// A Steam Web API call's JSON, or the reason it has none.
    func get(_ path: String, _ query: [String: String]) async throws -> [String: Any] {
        var components = URLComponents(string: steamAPIBase.hasSuffix("/") ? steamAPIBase : steamAPIBase + "/")!
        components.path += path
        components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        let request = HTTPClientRequest(url: components.string!)
        let status: UInt
        let body: ByteBuffer
        do {
            let response = try await http.execute(request, timeout: timeout)
            status = response.status.code
            body = try await response.body.collect(upTo: 32 << 20)
        } catch {
            throw ImportSourceError("Steam did not answer (it may be down). Try again in a few minutes.")
        }
        switch status {
        case 200: break
        case 401, 403:
            throw ImportSourceError(
                "Steam refused this server's API key (HTTP \(status)): an admin needs to check STEAM_API_KEY.")
        case 400:
            throw ImportSourceError("Steam does not know that account. Check the SteamID64 or custom URL name.")
        case 429:
            throw ImportSourceError("Steam is limiting requests right now. Try again in a few minutes.")
        default:
            throw ImportSourceError("Steam answered with an error (HTTP \(status)). Try again later.")
        }
        guard let json = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else {
            throw ImportSourceError("Steam answered with something that is not its JSON. Try again later.")
        }
        return json
    }

    package func download(_ attachment: Attachment, limit: Int) async throws -> Data {
        var request = HTTPClientRequest(url: attachment.url)
        let fromSlack = slackFiles.map { attachment.url.hasPrefix($0.base) } ?? false
        if let media = Self.mxc(attachment.url), let matrixMedia {
            // Matrix's authenticated media: https://spec.matrix.org/v1.11/client-server-api/#content-repository
            request = HTTPClientRequest(
                url: matrixMedia.homeserver + "/_matrix/client/v1/media/download/\(media.server)/\(media.id)")
            request.headers.add(name: "Authorization", value: "Bearer \(matrixMedia.token)")
        } else if let slackFiles, fromSlack {
            request.headers.add(name: "Authorization", value: "Bearer \(slackFiles.token)")
        } else {
            guard attachmentBases.contains(where: { attachment.url.hasPrefix($0) }) else {
                throw ImportSourceError("That file is not stored where this bot downloads files from.")
            }
        }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: timeout)
        } catch {
            throw ImportSourceError("The file could not be downloaded; send it again.")
        }
        guard response.status.code == 200 else {
            throw ImportSourceError("The file could not be downloaded (HTTP \(response.status.code)); send it again.")
        }
        // Slack answers a private file asked for with a token it refuses with its sign-in page, not an error.
        if fromSlack, response.headers.first(name: "Content-Type")?.lowercased().hasPrefix("text/html") == true {
            throw ImportSourceError(
                "The file was not handed over (a sign-in page came instead): an admin needs to check the bot's token.")
        }
        do {
            return Data(buffer: try await response.body.collect(upTo: limit))
        } catch is NIOTooManyBytesError {
            throw ImportSourceError("The file is larger than 5 MB.")
        } catch {
            throw ImportSourceError("The file could not be downloaded; send it again.")
        }
    }

    /// The server name and media id of an `mxc://{server}/{id}` address; nil for anything else (a media id is
    /// letters, digits, `_` and `-`; a server name has no `/`).
    package static func mxc(_ url: String) -> (server: String, id: String)? {
        guard url.hasPrefix("mxc://") else { return nil }
        let parts = url.dropFirst("mxc://".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) }),
            parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-".contains($0)) })
        else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
