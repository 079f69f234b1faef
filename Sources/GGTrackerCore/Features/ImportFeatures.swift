import Foundation

/// What an import brought in, for its summary.
package struct ImportSummary: Sendable {
    package var source: String
    package var total: Int
    package var counts: ImportCounts
    /// Items the catalog has no game for, with suggestions for the first few.
    package var unmatched: [(item: ImportItem, suggestions: [Game])]
    /// How many unmatched names the summary shows, with suggestions.
    static let shownUnmatched = 5

    /// The summary a player reads: counts, then the first names not matched with what they might be.
    package var text: RichText {
        var text: RichText =
            "\(bold: "Import from \(source)"): \(Format.count(total, "game")) read — \(Format.number(counts.added)) added, \(Format.number(counts.updated)) updated, \(Format.number(counts.already)) already there, \(Format.number(unmatched.count)) not matched."
        if !unmatched.isEmpty {
            let shown = unmatched.prefix(Self.shownUnmatched).map { item, suggestions in
                var line = "“\(Format.truncate(item.name, 80))”"
                if !suggestions.isEmpty {
                    line += " (did you mean \(suggestions.map(\.displayName).joined(separator: " or "))?)"
                }
                return line
            }
            let more = unmatched.count > shown.count ? ", and \(unmatched.count - shown.count) more" : ""
            text = [text, RichText(stringLiteral: "Not matched: " + shown.joined(separator: ", ") + more + ".")]
                .joined(separator: "\n")
            text = [text, "Add those with \(code: "/add"), or name them as the catalog does and import again."]
                .joined(separator: "\n")
        }
        if counts.added + counts.updated == 0 {
            text = [text, "Nothing was changed."].joined(separator: "\n")
        }
        return text
    }
}

/// `/import steam` and `/import file`: a library brought in from Steam or another tracker's CSV export.
struct ImportFeatures: Sendable {
    typealias Context = GGTrackerBot.Context

    let bot: GGTrackerBot

    /// `/import file` typed without a file (in the terminal, on Slack, or on Matrix not answering one): the way
    /// that works there instead, for this player.
    static func fileWithoutAttachment(_ invoker: Invoker) -> Reply {
        let command = "ggtracker import FILE --user \(invoker.player.rawValue)"
        switch invoker.platform {
        case .cli:
            return .notice(
                "The terminal reads a CSV export with \(code: command) (Grouvee, HowLongToBeat or GGTracker's own). "
                    + "Nothing was imported.")
        case .matrix:
            return .notice(
                "Send your Grouvee, HowLongToBeat or GGTracker CSV export to this room as a file, then reply to it "
                    + "with \(code: "/import file"); your Steam games come in with \(code: "/import steam"). "
                    + "Nothing was imported.")
        default: break
        }
        return .notice(
            "A file cannot come with a typed command here. Whoever runs GGTracker can bring your Grouvee, "
                + "HowLongToBeat or GGTracker CSV export in on the server with \(code: command), or give the app a "
                + "bot token (SLACK_BOT_TOKEN) so that \(code: "/import file") takes a CSV you share in the channel; "
                + "your Steam games come in with \(code: "/import steam"). Nothing was imported.")
    }

    /// A private refusal: nothing was imported.
    static func refusal(_ reason: String) -> Reply { .notice(reason + " Nothing was imported.") }

    static let unavailable = refusal("Imports are not available on this installation.")

    func steam(_ account: String, _ c: Context) async throws -> Reply {
        guard let sources = bot.sources else { return Self.unavailable }
        do {
            return try await finish(try await sources.steamGames(of: account), source: "Steam", c)
        } catch let error as ImportSourceError {
            return Self.refusal(error.message)
        }
    }

    func file(_ file: Attachment, _ format: ImportFormat, _ c: Context) async throws -> Reply {
        let name = "“\(Format.truncate(file.filename, 80))”"
        guard file.size <= ImportFormat.maxBytes else {
            return Self.refusal(
                "\(name) is \(String(format: "%.1f", Double(file.size) / 1_048_576)) MB; an import takes files up to 5 MB."
            )
        }
        guard let sources = bot.sources else { return Self.unavailable }
        let read: (ImportFormat, [ImportItem])
        do {
            read = try format.items(from: try await sources.download(file, limit: ImportFormat.maxBytes))
        } catch let error as ImportSourceError {
            return Self.refusal(error.message)
        } catch let error as ImportFileError {
            return Self.refusal("\(name) could not be read: \(error.description).")
        }
        return try await finish(read.1, source: read.0.label, file: file.filename, c)
    }

    /// Imports the items and answers privately with the summary; the server hears of it in one line.
    func finish(_ items: [ImportItem], source: String, file: String? = nil, _ c: Context) async throws -> Reply {
        let progress = c.progress
        let shown = file.map { "\(source) (\(Format.truncate($0, 60)))" } ?? source
        let summary = try await bot.importLibrary(
            items, source: shown, player: c.player.id, displayName: c.player.displayName, at: c.now
        ) { done, total in
            progress?(
                .notice(
                    "Importing from \(shown): looked up \(Format.number(done)) of \(Format.count(total, "game"))…"))
        }
        var reply = Reply.notice(summary.text)
        if summary.counts.added > 0 {
            let text: RichText =
                "📥 \(c.player.shownName) brought \(Format.count(summary.counts.added, "game")) in from \(source)."
            reply.announcements = try await bot.announceTargets(c).map { Announcement(to: $0, text: text, cards: []) }
        }
        return reply
    }
}

extension GGTrackerBot {
    /// How many items are matched between progress reports.
    static let importStep = 500

    /// Matches the items to the catalog (reporting progress every few hundred) and stores what matched in one
    /// transaction; for chat and the terminal alike.
    package func importLibrary(
        _ items: [ImportItem], source: String, player: PlayerID, displayName: String, at now: Date,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> ImportSummary {
        var matched: [(item: ImportItem, game: Game)] = []
        var unmatched: [(item: ImportItem, suggestions: [Game])] = []
        for start in stride(from: 0, to: items.count, by: Self.importStep) {
            let chunk = Array(items[start..<min(start + Self.importStep, items.count)])
            let suggesting = max(0, ImportSummary.shownUnmatched - unmatched.count)
            for (item, match) in zip(chunk, try await catalog.match(chunk, suggesting: suggesting)) {
                switch match {
                case .game(let game): matched.append((item, game))
                case .none(let suggestions): unmatched.append((item, suggestions))
                }
            }
            progress?(min(start + Self.importStep, items.count), items.count)
        }
        let counts =
            matched.isEmpty
            ? ImportCounts()
            : try await store.library.importItems(matched, for: player, displayName: displayName, at: now)
        return ImportSummary(source: source, total: items.count, counts: counts, unmatched: unmatched)
    }
}
