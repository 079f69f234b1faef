import Foundation
import GGTrackerCore
import GGTrackerStorage

/// Search over the local catalog's names in memory: prefixes, typo correction from the vocabulary, filters
/// checked in the database, and a ranking by match quality, then popularity.
package struct SearchIndex: Sendable {
    package var database: AppDatabase
    package var vocabulary: Vocabulary
    package var names = NameIndex()
    /// A query word listing at most this many games is checked by game rank, a wider one by the game's terms
    /// (`Membership`); both give the same games.
    package var rankSetLimit = Membership.rankSetLimit

    package init(database: AppDatabase, vocabulary: Vocabulary) {
        self.database = database
        self.vocabulary = vocabulary
    }

    /// Rebuilds the in-memory name index and the typo vocabulary from the catalog.
    package func reload() async throws {
        try await names.load(from: database)
        vocabulary.load(from: names.snapshot)
    }

    /// The name index, first starting a rebuild if another process changed the catalog. A search and an
    /// autocompletion use the index as it is and check it when they read the games they show (`games`).
    func currentNames() async -> NameIndex.Snapshot {
        await names.refreshIfStale(database, then: reloadVocabulary)
        return names.snapshot
    }

    /// Loads the typo vocabulary from the name index once a rebuild is done.
    var reloadVocabulary: @Sendable () -> Void {
        { [names, vocabulary] in vocabulary.load(from: names.snapshot) }
    }

    /// The term ranges one query word matches: as a prefix (numbers whole), its numeral twin, its corrections.
    func ranges(_ word: QueryWord, in index: NameIndex.Snapshot) -> [Range<Int32>] {
        var ranges = [
            word.text.count >= 2 && !word.isWhole ? index.range(prefix: word.text) : index.range(exact: word.text)
        ]
        if let twin = word.twin { ranges.append(index.range(exact: twin)) }
        ranges += word.corrections.map { index.range(exact: $0) }
        return ranges.filter { !$0.isEmpty }
    }

    /// Candidates from memory: games matching every group (or, with `any`, one of them), most popular first.
    func memoryCandidates(
        _ groups: [[Range<Int32>]], in index: NameIndex.Snapshot, includeMature: Bool, any: Bool, limit: Int
    ) -> [Int32] {
        var hidden: [Int32] = []
        return memoryCandidates(
            groups, in: index, includeMature: includeMature, any: any, limit: limit, hidden: &hidden)
    }

    /// How many games left out only for the age gate a search keeps (and counts) at most.
    static let hiddenKept = 100

    /// The same, also keeping in `hidden` (up to `hiddenKept`) the games left out only for the age gate: with fewer
    /// candidates than `limit`, all of them.
    func memoryCandidates(
        _ groups: [[Range<Int32>]], in index: NameIndex.Snapshot, includeMature: Bool, any: Bool, limit: Int,
        hidden: inout [Int32]
    ) -> [Int32] {
        let mature = index.mature
        if any {
            return index.merged(groups.flatMap { $0 }, limit: limit) { includeMature || !mature[Int($0)] }
        }
        guard let driver = groups.indices.min(by: { index.size(groups[$0]) < index.size(groups[$1]) }) else {
            return []
        }
        let others = groups.indices.filter { $0 != driver }.map {
            Membership(groups[$0], in: index, rankSetLimit: rankSetLimit)
        }
        return index.merged(groups[driver], limit: limit) { rank in
            if includeMature || !mature[Int(rank)] { return others.allSatisfy { $0.contains(rank, in: index) } }
            if hidden.count < Self.hiddenKept, others.allSatisfy({ $0.contains(rank, in: index) }) {
                hidden.append(rank)
            }
            return false
        }
    }

    /// How one query word may match: as typed (prefix), its numeral twin, or a typo correction.
    struct QueryWord {
        var text: String
        var twin: String?
        var corrections: [String]
        var isStopWord: Bool

        /// A number or a roman numeral (one with a twin): it matches only whole, never as a prefix.
        var isWhole: Bool { twin != nil || text.allSatisfy(\.isNumber) }
    }

    func queryWords(_ query: String) -> [QueryWord] {
        TextNormalizer.words(query).prefix(12).map { word in
            QueryWord(
                text: word, twin: TextNormalizer.numeralTwin(word), corrections: vocabulary.corrections(for: word),
                isStopWord: TextNormalizer.isStopWord(word))
        }
    }

    /// Games matching a platform, genre or release-year filter are found among the word matches, most popular
    /// first: at most this many of those are checked against the filter.
    static let filteredCandidates = 20_000

    /// The search over the in-memory index: words, corrections and a ranking by match quality, then popularity.
    package func search(_ query: String, filter: CatalogFilter, limit: Int) async throws -> [SearchHit] {
        try await searchCountingHidden(query, filter: filter, limit: limit).hits
    }

    /// The search, with how many games matching every word of the query the age gate left out (`partial` when it
    /// stopped counting: a query so common that more were left out), and whether one of those has every word as
    /// typed (`hiddenExact`). Games with only some of the words are not offered in their place.
    package func searchCountingHidden(
        _ query: String, filter: CatalogFilter, limit: Int
    ) async throws -> (hits: [SearchHit], ageRestricted: Int, partial: Bool, hiddenExact: Bool) {
        let index = names.snapshot
        let includeMature = filter.includeMature
        let filtered = filter.platform != nil || filter.genre != nil || filter.year != nil
        /// Keeps the candidates that pass the filter, in order (for `hidden`, all but its age gate).
        func passing(_ ranks: [Int32], hidden: Bool = false) async throws -> [Int32] {
            guard filtered, !ranks.isEmpty else { return ranks }
            var filter = filter
            if hidden { filter.includeMature = true }
            let allowed = try await database.catalog.matching(filter, among: ranks.map { index.ids[Int($0)] })
            return ranks.filter { allowed.contains(index.ids[Int($0)]) }
        }
        let wide = filtered ? Self.filteredCandidates : 300
        let words = queryWords(query)
        let required = words.filter { !$0.isStopWord }
        let chosen = required.isEmpty ? words : required
        guard !chosen.isEmpty else { return ([], 0, false, false) }
        let groups = chosen.map { ranges($0, in: index) }
        var candidates: [Int32] = []
        var hidden: [Int32] = []
        var partial = false
        if groups.allSatisfy({ !$0.isEmpty }) {
            let found = memoryCandidates(
                groups, in: index, includeMature: includeMature, any: false, limit: wide, hidden: &hidden)
            // The scan stops at `wide` candidates and keeps at most `hiddenKept` hidden ones: beyond, more may be
            // hidden.
            partial = found.count >= wide || hidden.count >= Self.hiddenKept
            candidates = try await passing(found).prefix(300).map { $0 }
        }
        // A game named exactly as the query is always considered, however many more popular games match.
        let mature = index.mature
        var seen = Set(candidates)
        for rank in try await passing(required.isEmpty ? [] : index.exactlyNamed(required.map(\.text)))
        where !seen.contains(rank) {
            if includeMature || !mature[Int(rank)] {
                candidates.append(rank)
            } else {
                hidden.append(rank)
            }
            seen.insert(rank)
        }
        let hiddenRanks = Set(try await passing(hidden, hidden: true)).subtracting(candidates)
        let ageRestricted = hiddenRanks.count
        // Fewer games than asked for, with words left out, only when no hidden game has them all.
        if candidates.count < min(limit, 3) && groups.count > 2 && ageRestricted == 0 {
            // No game has every word (a typo too short to correct, a word too many): games with all words but
            // one come first.
            for skipped in groups.indices {
                let rest = groups.indices.filter { $0 != skipped }.map { groups[$0] }
                guard rest.allSatisfy({ !$0.isEmpty }) else { continue }
                for rank in try await passing(
                    memoryCandidates(rest, in: index, includeMature: includeMature, any: false, limit: wide)
                ).prefix(50)
                where seen.insert(rank).inserted {
                    candidates.append(rank)
                }
            }
            // Games with the rarest words the query has together ("hades deluxe edition": Hades, where games
            // with "deluxe edition" are many), for suggestions.
            let rarest = groups.indices.filter { !groups[$0].isEmpty }.sorted {
                index.size(groups[$0]) < index.size(groups[$1])
            }
            for count in stride(from: rarest.count - 2, through: 1, by: -1) {
                let found = try await passing(
                    memoryCandidates(
                        rarest.prefix(count).map { groups[$0] }, in: index, includeMature: includeMature, any: false,
                        limit: 50))
                guard !found.isEmpty else { continue }
                for rank in found where seen.insert(rank).inserted { candidates.append(rank) }
                break
            }
        }
        if candidates.count < min(limit, 3) && groups.count > 1 && ageRestricted == 0 {
            // Hardly any game has every word: let any word match, for suggestions.
            await candidates += try passing(
                memoryCandidates(
                    groups.filter { !$0.isEmpty }, in: index, includeMature: includeMature, any: true, limit: wide)
            ).prefix(100).filter { !seen.contains($0) }
        }
        let rankedQuery = TermQuery(RankedQuery(words), terms: index.terms) { rarity(of: $0, in: index) }
        let ranked = candidates.map { rank in
            (
                index.ids[Int(rank)],
                score(
                    name: index.nameWords[Int(index.nameStart[Int(rank)])..<Int(index.nameStart[Int(rank) + 1])],
                    keywords: index.keywordTerms[
                        Int(index.keywordStart[Int(rank)])..<Int(index.keywordStart[Int(rank) + 1])],
                    popularity: Double(index.popularity[Int(rank)]), secondary: index.secondary[Int(rank)],
                    query: rankedQuery)
            )
        }
        .sorted { ($0.1.score, -$0.0) > ($1.1.score, -$1.0) }.prefix(limit)
        // A hidden game with every word as typed ("mass effect" where Mass Effect is hidden): a game found only
        // through corrections (Massive Effect) is then no answer in its place. Only names count here.
        let hiddenExact = hiddenRanks.contains { rank in
            score(
                name: index.nameWords[Int(index.nameStart[Int(rank)])..<Int(index.nameStart[Int(rank) + 1])],
                popularity: 0, secondary: false, query: rankedQuery
            ).exactWords
        }
        return (try await hits(ranked), ageRestricted, partial && ageRestricted > 0, hiddenExact)
    }

    /// A query word's weight in ranking: the fewer games have it in their names (as typed, or its numeral twin),
    /// the more it weighs, as a word's inverse document frequency does — up to a word one game in 10,000 has: a
    /// word rarer still is as likely a typo that happens to be some obscure game's ("half lfe 2": After L!fe). A
    /// word naming a release, not a game (`TextNormalizer.editionWords`), weighs a quarter: "the witcher 3 complete
    /// edition", where no game has every word, is The Witcher 3 before Dirt 3: Complete Edition.
    func rarity(of word: QueryWord, in index: NameIndex.Snapshot) -> Double {
        let games = Double(index.count)
        let exact = [index.range(exact: word.text)] + (word.twin.map { [index.range(exact: $0)] } ?? [])
        let weight = log(1 + games / (1 + max(Double(index.size(exact)), games / 10_000)))
        return TextNormalizer.editionWords.contains(word.text) ? weight / 4 : weight
    }

    /// Games named exactly so (stop words aside, numerals alike), most popular first.
    package func exactlyNamed(_ name: String) async -> [Int64] {
        let index = await currentNames()
        let core = TextNormalizer.canonicalCore(TextNormalizer.words(name))
        guard !core.isEmpty else { return [] }
        return index.exactlyNamed(core)
            .filter { TextNormalizer.canonicalCore(index.nameWords($0)) == core }
            .sorted { index.popularity[Int($0)] > index.popularity[Int($1)] }
            .map { index.ids[Int($0)] }
    }

    func hits(_ ranked: some Collection<(Int64, Match)>) async throws -> [SearchHit] {
        // Only the games shown are read in full.
        let games = try await self.games(ranked.map(\.0))
        return ranked.compactMap { id, match in
            games[id].map { match.hit($0) }
        }
    }

    /// Ranks games the caller already has against a query, with the same scoring as a search.
    package func rank(_ query: String, among games: [Game]) -> [SearchHit] {
        let local = TermList.naming(games.map { TextNormalizer.words($0.name) })
        let query = TermQuery(RankedQuery(queryWords(query)), terms: local.terms)
        return zip(games, local.names).map { game, name in
            score(name: name[...], popularity: 0, secondary: !game.isMainGame, query: query).hit(game)
        }
        .filter(\.coversQuery).sorted { ($0.score, -$0.game.id) > ($1.score, -$1.game.id) }
    }

    /// Name-prefix suggestions for autocomplete: every word as typed, the last one as a prefix. Games found by
    /// prefix carry only what a suggestion shows (`CatalogRecords.suggestionColumns`).
    package func autocomplete(_ text: String, includeMature: Bool, limit: Int) async throws -> [Game] {
        let words = TextNormalizer.words(text).prefix(8)
        guard !words.isEmpty else {
            return try await database.catalog.popular(includeMature: includeMature, limit: limit)
        }
        let index = names.snapshot
        let groups = words.map { [index.range(prefix: $0)] }
        let ranks =
            groups.allSatisfy { !$0[0].isEmpty }
            ? memoryCandidates(groups, in: index, includeMature: includeMature, any: false, limit: 200) : []
        let found = ranks.map {
            (id: index.ids[Int($0)], name: index.nameWords($0), popularity: Double(index.popularity[Int($0)]))
        }
        let prefix = words.joined(separator: " ")
        let ranked = found.map { candidate -> (Int64, Double) in
            let name = candidate.name
            let joined = name.joined(separator: " ")
            var score = candidate.popularity
            if joined.hasPrefix(prefix) { score += 6 }
            if name.filter({ !TextNormalizer.isStopWord($0) }).joined(separator: " ").hasPrefix(prefix) {
                score += 4
            }
            score -= Double(max(0, name.count - words.count)) * 0.4
            return (candidate.id, score)
        }
        let ids = ranked.sorted { $0.1 > $1.1 }.prefix(limit).map(\.0)
        let games = try await self.games(Array(ids), suggestionsOnly: true)
        let results = ids.compactMap { games[$0] }
        if results.isEmpty {
            return try await search(text, filter: CatalogFilter(includeMature: includeMature), limit: limit).map(\.game)
        }
        return Array(results)
    }

    /// Games by id, in one query (in full, or with `suggestionsOnly` what a suggestion shows); with them, the
    /// catalog's generation, which starts a rebuild of the name index when another process changed the catalog
    /// since it was built.
    func games(_ ids: [Int64], suggestionsOnly: Bool = false) async throws -> [Int64: Game] {
        let (games, generation) = try await database.catalog.gamesAndGeneration(ids, suggestionsOnly: suggestionsOnly)
        names.refresh(unlessBuiltFrom: generation, database, then: reloadVocabulary)
        return games
    }
}
