import Foundation

/// A game's page pasted as a title: its Steam store page (`https://store.steampowered.com/app/620/Portal_2/`) or
/// its IGDB page (`https://www.igdb.com/games/portal-2`). Read for the Steam app id and the name the address
/// spells, which the catalog is matched on as an import's items are.
package struct GameLink: Equatable, Sendable {
    package var steamAppID: Int64?
    /// The name the address spells ("Portal 2"); empty when it spells none.
    package var name: String

    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // Most titles are names: told apart before any parsing.
        guard trimmed.lowercased().hasPrefix("http"), !trimmed.contains(" "), let url = URL(string: trimmed),
            url.scheme == "https" || url.scheme == "http",
            let host = url.host?.lowercased()
        else { return nil }
        let parts = url.pathComponents.filter { $0 != "/" }
        if host == "store.steampowered.com" || host == "steamcommunity.com", parts.count >= 2, parts[0] == "app",
            let id = Int64(parts[1]), id > 0
        {
            steamAppID = id
            // The store spells the name after the id; the community's pages have other words there.
            let spelled = host == "store.steampowered.com" && parts.count >= 3
            name = spelled ? parts[2].replacingOccurrences(of: "_", with: " ") : ""
        } else if host == "igdb.com" || host == "www.igdb.com", parts.count >= 2, parts[0] == "games" {
            var slug = Substring(parts[1])
            // IGDB tells apart games of one name with "--2", "--3"…
            if let dashes = slug.range(of: "--", options: .backwards), Int(slug[dashes.upperBound...]) != nil {
                slug = slug[..<dashes.lowerBound]
            }
            name = slug.replacingOccurrences(of: "-", with: " ")
        } else {
            return nil
        }
    }

    /// The link as an import's item: matched by Steam app id first, then by name.
    var item: ImportItem {
        var item = ImportItem(line: 0, name: name)
        item.steamAppID = steamAppID
        return item
    }
}
