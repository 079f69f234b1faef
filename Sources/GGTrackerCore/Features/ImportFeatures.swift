import Foundation

/// Progress of a long command for the platform to show while the person waits (Discord edits its deferred
/// answer); set by the platform around a command, absent elsewhere.
package enum CommandProgress {
    @TaskLocal package static var report: (@Sendable (Reply) -> Void)?
}

/// What an import brought in, for its summary.
package struct ImportSummary: Sendable {
    package var source: String
    package var total: Int
    package var counts: ImportCounts
    /// Items the catalog has no game for, with suggestions for the first few.
    package var unmatched: [(item: ImportItem, suggestions: [Game])]

    /// The summary a player reads: counts, then the first names not matched with what they might be.
    package var text: RichText {
        var text: RichText =
            "\(bold: "Import from \(source)"): \(Format.count(total, "game")) read — \(counts.added) added, \(counts.updated) updated, \(counts.already) already there, \(unmatched.count) not matched."
        if !unmatched.isEmpty {
            let shown = unmatched.prefix(5).map { item, suggestions in
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

    func steam(_ account: String, _ c: Context) async throws -> Reply {
        guard let sources = bot.sources else {
            return .notice("Imports are not available on this installation. Nothing was imported.")
        }
        let items: [ImportItem]
        do {
            items = try await sources.steamGames(of: account)
        } catch let error as ImportSourceError {
            return .notice(RichText(stringLiteral: error.message + " Nothing was imported."))
        }
        return try await finish(items, source: "Steam", c)
    }

    func file(_ file: Attachment, _ format: ImportFormat, _ c: Context) async throws -> Reply {
        guard file.size <= ImportFormat.maxBytes else {
            return .notice(
                "“\(Format.truncate(file.filename, 80))” is \(String(format: "%.1f", Double(file.size) / 1_048_576)) MB; an import takes files up to 5 MB. Nothing was imported."
            )
        }
        guard let sources = bot.sources else {
            return .notice("Imports are not available on this installation. Nothing was imported.")
        }
        let data: Data
        do {
            data = try await sources.download(file, limit: ImportFormat.maxBytes)
        } catch let error as ImportSourceError {
            return .notice(RichText(stringLiteral: error.message + " Nothing was imported."))
        }
        let read: (ImportFormat, [ImportItem])
        do {
            read = try format.items(from: data)
        } catch {
            return .notice(
                "“\(Format.truncate(file.filename, 80))” could not be read: \(error.description). Nothing was imported."
            )
        }
        return try await finish(read.1, source: "\(read.0.label) (\(Format.truncate(file.filename, 60)))", c)
    }

    /// Imports the items and answers privately with the summary; the server hears of it in one line.
    func finish(_ items: [ImportItem], source: String, _ c: Context) async throws -> Reply {
        let progress = CommandProgress.report
        let summary = try await bot.importLibrary(
            items, source: source, player: c.player.id, displayName: c.player.displayName, at: c.now
        ) { done, total in
            progress?(.notice("Importing from \(source): matched \(done) of \(total) games…"))
        }
        var reply = Reply.notice(summary.text)
        if summary.counts.added > 0, let channel = c.settings.announceChannel {
            reply.announcement = Announcement(
                channel: channel,
                text:
                    "📥 \(c.player.shownName) brought \(Format.count(summary.counts.added, "game")) in from \(source.split(separator: " ").first.map(String.init) ?? source).",
                cards: [])
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
            for (item, match) in zip(chunk, try await catalog.match(chunk)) {
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
