import Foundation

extension GGTrackerBot {
    /// "Doom (1993)", "Doom 1993": a name followed by its release year, the way replies tell namesakes apart and
    /// people copy them. The game of that exact name released that year, when there is one (a question among
    /// several); nil leaves the whole text to the usual rules, as for names that end with a number ("Cyberpunk
    /// 2077", "Battlefield 1942").
    func datedPick(_ text: String, _ c: Context, scope: TitleScope) async throws -> TitlePick? {
        guard let (name, year) = TitleQuery.nameAndYear(text) else { return nil }
        func sameYear(_ hits: [SearchHit]) -> [SearchHit] {
            hits.filter { $0.exactName && $0.game.releaseYear == year }
        }
        if scope == .ownShelves {
            let shelf = sameYear(catalog.rank(name, among: try await store.library.shelfGames(of: c.player.id)))
            if let pick = TitlePick.fromShelves(shelf) { return pick }
        }
        let hits = sameYear(try await catalog.lookup(name, filter: CatalogFilter(includeMature: true), limit: 25).hits)
        return hits.isEmpty ? nil : TitlePick.fromCatalog(hits)
    }
}

extension TitleQuery {
    /// The name and the year of "Name (1993)" or "Name 1993"; nil for any other text.
    static func nameAndYear(_ text: String) -> (name: String, year: Int)? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        let bracketed = rest.hasSuffix(")")
        if bracketed { rest = rest.dropLast() }
        let digits = rest.suffix(4)
        guard digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(digits) else {
            return nil
        }
        rest = rest.dropLast(4)
        if bracketed {
            guard rest.hasSuffix("(") else { return nil }
            rest = rest.dropLast()
        }
        // "Doom(1993)" is dated too; "Doom1993" is a name.
        guard bracketed || rest.last?.isWhitespace == true else { return nil }
        let name = rest.trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : (name, year)
    }
}
