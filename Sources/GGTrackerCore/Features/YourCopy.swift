import Foundation

/// Where a game stands for the caller: in their library, on their wishlist, or on no shelf.
enum CallerShelf {
    case library(LibraryEntry)
    case wishlist
    case none
}

extension GGTrackerBot {
    func shelf(of game: Game, _ c: Context) async throws -> CallerShelf {
        if let entry = try await store.library.entry(of: c.player.id, game: game.id) { return .library(entry) }
        return try await store.library.isWishlisted(c.player.id, game: game.id) ? .wishlist : .none
    }

    /// The caller's own copy, shown under the catalog card of `/game`: status, hours, percent, score, favorite,
    /// tags, note, the start of the review, when it was added and completed.
    func yourCopyCard(_ entry: LibraryEntry, _ c: Context) -> Card {
        var fields: [Card.Field] = []
        if !entry.tags.isEmpty {
            fields.append(.init("Tags", entry.tags.prefix(50).map { RichText([.code($0)]) }.joined(separator: ", ")))
        }
        fields.append(.init("Added", Format.date(entry.addedAt)))
        if entry.status == .completed, let finished = entry.finishedAt {
            fields.append(.init("Completed", Format.date(finished)))
        }
        if let note = entry.note {
            fields.append(.init("Note", Format.truncate(note, 1024), inline: false))
        }
        if let review = entry.review {
            let start = Format.truncate(review, 300)
            fields.append(
                .init("Review", entry.reviewIsSpoiler ? "\(spoiler: start)" : RichText(start), inline: false))
        }
        return Card(
            title: Format.truncate("\(c.player.shownName)'s copy", 256),
            description: RichText(LibraryFeatures.facts(entry)),
            fields: fields, color: Palette.library)
    }

    /// The buttons of a game's card, following where the game stands for the caller.
    func gameCardActions(_ game: Game, _ shelf: CallerShelf) -> (actions: [[Action]], menus: [Menu]) {
        let ref = game.ref
        switch shelf {
        case .none:
            return (
                [
                    [
                        Action("Add to library", .run(.add, ["title": .game(ref)]), style: .primary),
                        Action("Add to wishlist", .run(.wishlist, "add", ["title": .game(ref)])),
                    ]
                ], []
            )
        case .wishlist:
            return (
                [
                    [
                        Action("Add to library", .run(.add, ["title": .game(ref)]), style: .primary),
                        Action("Take off wishlist", .run(.wishlist, "remove", ["title": .game(ref)])),
                    ]
                ], []
            )
        case .library(let entry):
            var row: [Action] = []
            if entry.status != .playing && entry.status != .completed {
                row.append(
                    Action("Start playing", .run(.progress, ["title": .game(ref), "status": .status(.playing)])))
            }
            if entry.status == .completed {
                let label = entry.review == nil ? "Write a review" : "Edit your review"
                row.append(Action(label, .run(.review, ["title": .game(ref)]), style: .primary))
            } else {
                row.append(
                    Action("Mark completed", .run(.progress, ["title": .game(ref), "status": .status(.completed)])))
            }
            let rate = Self.rateMenu(ref, score: entry.score)
            return ([row], [rate])
        }
    }

    /// The ten scores to pick from for a game, the one it has named.
    static func rateMenu(_ ref: GameRef, score: Int?) -> Menu {
        Menu(
            score.map { "Your score: \($0)/10 — change it…" } ?? "Rate it…",
            options: (1...10).reversed().map { score in
                Menu.Option(
                    "\(score)/10 \(Format.stars(score))", .run(.rate, ["title": .game(ref), "score": .integer(score)]))
            })
    }
}
