import Foundation
import GGTrackerCore
import HTTPTypes
import Hummingbird

/// The read-only web page of a shared library: covers grouped by status, scores as stars, reviews, and SVG charts.
/// Server-rendered HTML, no JavaScript, every user and catalog string escaped.
enum SharedLibraryPage {
    static func html(
        player: Player, entries: [LibraryEntry], wishlist: [WishlistItem] = [], token: String, now: Date
    ) -> String {
        let name = escape(player.shownName)
        let hours = entries.compactMap(\.hours).reduce(0, +)
        let played = hours > 0 ? Format.hours(hours) + " played" : "no hours logged"
        var body = """
            <header>
            \(player.avatarURL.map { "<img class=\"avatar\" src=\"\(escape($0))\" alt=\"\" width=\"64\" height=\"64\">" } ?? "")
            <div><h1>\(name)'s games</h1>
            \(player.bio.map { "<p class=\"bio\">\(escape($0))</p>" } ?? "")
            <p class="summary">\(Format.count(entries.count, "game")) · \(escape(played))</p>
            <nav><a href="/u/\(token)/recap/\(Calendar.utcYear(of: now))">\(Calendar.utcYear(of: now)) in review</a></nav></div>
            </header>
            """
        for status in GameStatus.allCases {
            let shelf = entries.filter { $0.status == status }
            guard !shelf.isEmpty else { continue }
            body +=
                "<section class=\"shelf\" id=\"\(status.rawValue)\"><h2>\(status.emoji) \(status.label) <small>\(shelf.count)</small></h2>"
            body += "<div class=\"covers\">"
            for entry in shelf {
                body += card(entry)
            }
            body += "</div></section>"
        }
        if !wishlist.isEmpty {
            // What friends could give, or look forward to together: when it is not out yet, the day it comes out.
            body += "<section class=\"shelf\" id=\"wishlist\"><h2>🎁 Wishlist <small>\(wishlist.count)</small></h2>"
            body += "<div class=\"covers\">"
            for item in wishlist {
                var html = art(item.game) + "<h3>\(escape(item.game.displayName))</h3>"
                if let date = item.game.releaseDate, date > now {
                    html +=
                        "<p class=\"facts\">Out \(escape(Format.date(date, yearOnly: item.game.releaseYearOnly)))</p>"
                }
                body += "<article class=\"cover\">\(html)</article>"
            }
            body += "</div></section>"
        }
        body += "<section class=\"charts\">"
        body += chart(
            "status", "By status",
            GameStatus.allCases.map { s in (s.label, Double(entries.filter { $0.status == s }.count)) })
        var genres: [String: Int] = [:]
        for entry in entries { for genre in entry.game.genres { genres[genre, default: 0] += 1 } }
        let topGenres = genres.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(8)
        body += chart("genres", "Genres", topGenres.map { ($0.key, Double($0.value)) })
        body += chart(
            "scores", "Scores",
            (1...10).map { score in (String(score), Double(entries.filter { $0.score == score }.count)) },
            empty: "No games rated yet")
        body += chart(
            "hours", "Hours by month last played", hoursByMonth(entries, now: now), empty: "No hours logged yet")
        body += "</section>"
        if entries.isEmpty { body += "<p class=\"empty\">No games yet.</p>" }
        body += "<footer>Shared from GGTracker · Game data from IGDB.com</footer>"
        return page(title: "\(name)'s games", body: body)
    }

    /// A library entry's card: its cover, name, stars, hours, favorite and tags, review and note.
    static func card(_ entry: LibraryEntry) -> String {
        let game = entry.game
        var html = "<article class=\"cover\">\(art(game))<h3>\(escape(game.displayName))</h3>"
        if let score = entry.score {
            html += "<p class=\"stars\" title=\"\(score)/10\">\(Format.stars(score))</p>"
        }
        var facts: [String] = []
        if let hours = Format.played(entry.hours) { facts.append(hours) }
        if entry.favorite { facts.append("⭐ favorite") }
        if !entry.tags.isEmpty { facts.append(entry.tags.joined(separator: ", ")) }
        if !facts.isEmpty { html += "<p class=\"facts\">\(escape(facts.joined(separator: " · ")))</p>" }
        if let review = entry.review {
            let quote = "<blockquote class=\"review\">\(escape(review))</blockquote>"
            // A spoiler stays folded until the reader opens it.
            html +=
                entry.reviewIsSpoiler
                ? "<details class=\"spoiler\"><summary>Review (spoiler)</summary>\(quote)</details>" : quote
        }
        if let note = entry.note {
            html += "<p class=\"note\"><span aria-label=\"note\">📝</span> \(escape(note))</p>"
        }
        return html + "</article>"
    }

    /// The letter a game's placeholder shows: the first letter or digit of its name after a leading article, as a
    /// shelf sorts it ("L" for The Legend of Zelda, "H" for .hack//G.U.).
    static func initial(of name: String) -> String {
        let words = name.split(separator: " ")
        let articles: Set<String> = ["the", "a", "an"]
        let rest = words.count > 1 && articles.contains(words[0].lowercased()) ? words.dropFirst() : words[...]
        let letter = rest.joined(separator: " ").first(where: { $0.isLetter || $0.isNumber })
        return letter.map { String($0).uppercased() } ?? String(name.prefix(1))
    }

    /// A game's cover over a placeholder with its initial: the placeholder shows while the image loads and, drawn
    /// over the broken image by browsers that style only broken images' pseudo-elements, when it cannot load (the
    /// image has no alt text of its own; the title is printed under it).
    static func art(_ game: Game) -> String {
        let initial = escape(initial(of: game.name))
        let image =
            game.coverURL.map {
                "<img src=\"\(escape($0))\" alt=\"\" data-initial=\"\(initial)\" loading=\"lazy\" width=\"132\" height=\"176\">"
            } ?? ""
        return "<div class=\"art\"><span aria-hidden=\"true\">\(initial)</span>\(image)</div>"
    }

    /// Hours of each entry, by the month it was last updated, for the last twelve months.
    static func hoursByMonth(_ entries: [LibraryEntry], now: Date) -> [(String, Double)] {
        let calendar = Calendar.utc
        let months = (0..<12).reversed().compactMap { calendar.date(byAdding: .month, value: -$0, to: now) }
        return months.map { month in
            let parts = calendar.dateComponents([.year, .month], from: month)
            let hours = entries.filter {
                let c = calendar.dateComponents([.year, .month], from: $0.updatedAt)
                return c.year == parts.year && c.month == parts.month
            }.compactMap(\.hours).reduce(0, +)
            return (Format.monthNames[parts.month! - 1], hours)
        }
    }

    /// A label that fits the chart's label column: whole words, with an ellipsis when some are left out.
    static func shortLabel(_ label: String, limit: Int = 18) -> String {
        guard label.count > limit else { return label }
        var kept = ""
        for word in label.split(separator: " ") {
            let next = kept.isEmpty ? String(word) : kept + " " + word
            if next.count > limit - 1 { break }
            kept = next
        }
        if kept.isEmpty { kept = String(label.prefix(limit - 1)) }
        return kept.trimmingCharacters(in: CharacterSet(charactersIn: " /-(,")) + "…"
    }

    /// A bar chart as inline SVG, scaled to its largest value; a shortened label keeps its full text as a tooltip,
    /// and the column for the figures fits "9999.5".
    /// A bar chart of `items`; with nothing to draw (no items, or every one at zero), the `empty` line instead of
    /// a column of zeros.
    static func chart(
        _ id: String, _ title: String, _ items: [(String, Double)], empty: String = "Nothing yet"
    )
        -> String
    {
        guard items.contains(where: { $0.1 > 0 }) else {
            return "<figure><figcaption>\(escape(title))</figcaption>"
                + "<p class=\"empty\" id=\"chart-\(id)\">\(escape(empty))</p></figure>"
        }
        let width = 340.0
        let rowHeight = 22.0
        let labelWidth = 124.0
        let figureWidth = 52.0
        let most = max(items.map(\.1).max() ?? 0, 1)
        var svg = "<figure><figcaption>\(escape(title))</figcaption>"
        svg +=
            "<svg class=\"chart\" id=\"chart-\(id)\" role=\"img\" aria-label=\"\(escape(title))\" viewBox=\"0 0 \(Int(width)) \(Int(Double(items.count) * rowHeight))\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (index, (label, value)) in items.enumerated() {
            let y = Double(index) * rowHeight
            let barWidth = (width - labelWidth - figureWidth) * value / most
            let short = shortLabel(label)
            let tooltip = short == label ? "" : "<title>\(escape(label))</title>"
            svg += "<text x=\"0\" y=\"\(y + 15)\" font-size=\"12\">\(tooltip)\(escape(short))</text>"
            svg +=
                "<rect x=\"\(labelWidth)\" y=\"\(y + 4)\" width=\"\(String(format: "%.1f", barWidth))\" height=\"14\" rx=\"3\"></rect>"
            let shown =
                value == value.rounded() || value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
            svg +=
                "<text x=\"\(String(format: "%.1f", labelWidth + barWidth + 4))\" y=\"\(y + 15)\" font-size=\"12\">\(shown)</text>"
        }
        return svg + "</svg></figure>"
    }

    /// Share tokens are 32 hex characters; anything else is not looked up.
    static func isToken(_ token: String) -> Bool { token.count == 32 && token.allSatisfy(\.isHexDigit) }

    /// A page as the browser gets it: never cached, no scripts, images only over https, kept out of search engines.
    static func response(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                HTTPField.Name("Content-Security-Policy")!:
                    "default-src 'none'; img-src https:; style-src 'unsafe-inline'",
                HTTPField.Name("X-Robots-Tag")!: "noindex",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func notFound() -> String {
        page(
            title: "Not found",
            body: "<h1>Not found</h1><p>This shared library does not exist, or its owner turned the link off.</p>")
    }

    static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;background:#111318;color:#e8e8ea}
        header{display:flex;gap:16px;align-items:center}.avatar{border-radius:50%}
        h1{margin:.2em 0}.summary,.bio,small{color:#a9abb3}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:12px;margin:16px 0}
        figure{margin:0;background:#1b1e26;border-radius:8px;padding:12px}figcaption{font-weight:600;margin-bottom:6px}figure .empty{font-size:13px;color:#a9abb3;margin:0}
        .chart{width:100%;height:auto}.chart rect{fill:#5865f2}.chart text{fill:#e8e8ea}
        .covers{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:12px}
        .cover{background:#1b1e26;border-radius:8px;padding:8px}
        .art{position:relative;aspect-ratio:3/4;border-radius:4px;background:#2a2e39;overflow:hidden;display:flex;align-items:center;justify-content:center;font-size:48px;color:#6b6f7b}
        .art img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover;color:transparent;font-size:0}
        .art img::after{content:attr(data-initial);position:absolute;inset:0;display:flex;align-items:center;justify-content:center;background:#2a2e39;color:#6b6f7b;font-size:48px}
        .note{font-size:12px;color:#c9cbd3;margin:4px 0 0;white-space:pre-wrap}
        .cover h3{font-size:14px;margin:6px 0 2px}.stars{color:#fee75c;margin:0}.facts{font-size:12px;color:#a9abb3;margin:2px 0}
        .review{font-size:13px;margin:6px 0 0;padding-left:8px;border-left:3px solid #5865f2;white-space:pre-wrap}
        .spoiler summary{font-size:13px;cursor:pointer;margin-top:6px}
        footer{margin-top:24px;color:#6b6f7b;font-size:12px}nav a{color:#8ea1ff}
        .recap{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:8px;margin:16px 0}
        .recap div{background:#1b1e26;border-radius:8px;padding:8px 12px}.recap dt{font-size:12px;color:#a9abb3}
        .recap dd{margin:2px 0 0}
        </style></head><body>
        \(body)
        </body></html>
        """
    }

    static func escape(_ text: String) -> String { HTML.escape(text) }
}
