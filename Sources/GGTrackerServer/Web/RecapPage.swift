import Foundation
import GGTrackerCore

/// The year in review on the shared page: the card's facts, SVG charts like the library page's, and the covers of
/// the games finished that year. Server-rendered, no JavaScript, every user and catalog string escaped.
enum RecapPage {
    static func html(player: Player, recap: YearRecap, token: String) -> String {
        let escape = SharedLibraryPage.escape
        let name = escape(player.shownName)
        let year = recap.year
        let title = "\(name)'s \(year) in games"
        var nav = "<a href=\"/u/\(token)\">Library</a>"
        // The other years with something recorded, each its recap; this one named, not linked.
        for other in Set(recap.yearsRecorded + [year]).sorted() {
            nav +=
                other == year ? " · <strong>\(year)</strong>" : " · <a href=\"/u/\(token)/recap/\(other)\">\(other)</a>"
        }
        var body = """
            <header>
            \(player.avatarURL.map { "<img class=\"avatar\" src=\"\(escape($0))\" alt=\"\" width=\"64\" height=\"64\">" } ?? "")
            <div><h1>\(title)</h1>
            <p class="summary">\(escape(RecapFeatures.headline(recap)))</p>
            <nav>\(nav)</nav></div>
            </header>
            """
        guard !recap.isEmpty else {
            body += "<p class=\"empty\">Nothing recorded in \(year).</p>"
            return SharedLibraryPage.page(title: title, body: body + footer)
        }
        body += "<dl class=\"recap\">"
        for fact in RecapFeatures.facts(recap) {
            body += "<div><dt>\(escape(fact.label))</dt><dd>\(escape(fact.value))</dd></div>"
        }
        if !recap.medals.isEmpty {
            body +=
                "<div><dt>Medals</dt><dd>\(escape(recap.medals.map { "🏅 \($0.challenge)" }.joined(separator: ", ")))</dd></div>"
        }
        body += "</dl><section class=\"charts\">"
        body += SharedLibraryPage.chart(
            "months", "Games finished by month",
            zip(Format.monthNames, recap.completionsByMonth).map { ($0, Double($1)) }, empty: "No games finished")
        let names = Dictionary(recap.entries.map { ($0.game.id, $0.game.displayName) }, uniquingKeysWith: { a, _ in a })
        let hours = recap.hoursByGame.compactMap { id, hours in names[id].map { ($0, hours) } }
            .sorted { ($0.1, $1.0) > ($1.1, $0.0) }.prefix(8)
        body += SharedLibraryPage.chart("game-hours", "Hours by game", Array(hours), empty: "No hours logged")
        var genres: [String: Int] = [:]
        for entry in recap.entries { for genre in entry.game.genres { genres[genre, default: 0] += 1 } }
        body += SharedLibraryPage.chart(
            "genres", "Genres played",
            genres.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(8).map { ($0.key, Double($0.value)) })
        body += "</section>"
        let completions = recap.completions
        body +=
            "<section class=\"shelf\" id=\"finished\"><h2>✅ Finished in \(year) <small>\(completions.count)</small></h2>"
        if completions.isEmpty {
            body += "<p class=\"empty\">No games finished in \(year).</p>"
        } else {
            body += "<div class=\"covers\">" + completions.map(SharedLibraryPage.card).joined() + "</div>"
        }
        body += "</section>"
        return SharedLibraryPage.page(title: title, body: body + footer)
    }

    static let footer = "<footer>Shared from GGTracker · Game data from IGDB.com · Years counted in UTC</footer>"
}
