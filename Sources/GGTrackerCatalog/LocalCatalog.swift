import Foundation
import GGTrackerCore
import GGTrackerStorage

/// The catalog as the features see it, served from the local database. In `offline` mode the bundled data file
/// fills it on first start, and a refresh loads that file again.
package struct LocalCatalog: GameCatalog {
    package var database: AppDatabase
    package var index: SearchIndex
    package var providerName: String
    /// Set when IGDB is the provider: refreshes pull from it instead of reloading the bundled file.
    package var igdb: IGDBRefresh?
    /// Asked when the local catalog has too few good matches; nil in offline mode.
    package var provider: (any CatalogProvider)?
    /// How long a provider's answer to a query stands before the provider is asked again.
    package var lookupTTL: TimeInterval = 7 * 86_400
    /// How long a lookup may wait for the provider.
    package var providerTimeout: Duration = .seconds(10)
    /// Opens after repeated provider failures, so a dead API is not waited on by every command.
    package var breaker = CircuitBreaker()
    let refreshState = RefreshState()
    let facetMatchers = FacetMatchers()
    /// One refresh runs across every process sharing the database.
    var lease: RefreshLease

    /// The provider is not being asked for now, after failing again and again.
    package struct ProviderUnavailable: Error, CustomStringConvertible {
        package var provider: String
        package var retryAfter: Int
        package var description: String {
            "the \(provider) catalog service is unreachable; try again in \(retryAfter) s"
        }
    }

    package init(database: AppDatabase, providerName: String = "offline") async throws {
        self.database = database
        self.index = SearchIndex(database: database, vocabulary: Vocabulary())
        self.providerName = providerName
        self.lease = RefreshLease(leases: database.leases)
        try await index.reload()
    }

    /// Loads the bundled catalog into an empty catalog, or again after an upgrade brought a different bundled file
    /// (games are updated by id; entries keep their games). Returns how many games were loaded.
    @discardableResult
    package func loadBundledIfEmpty() async throws -> Int {
        if try await database.catalog.gameCount() > 0 {
            guard let path = BundledCatalog.path, let current = BundledCatalog.fingerprint(ofFileAt: path) else {
                return 0
            }
            let stored = try await database.catalogState.value("bundled.fingerprint")
            // A catalog filled some other way (an import of its own) has neither mark and is left alone.
            let loadedBefore = try await database.catalogState.value("last_refresh") != nil
            guard stored != current, stored != nil || loadedBefore else { return 0 }
            return try await lease.holding {
                let report = try await loadBundled()
                return report.added + report.updated
            }
        }
        // Another process starting on the same database may be filling it or refreshing: only the lease holder
        // loads (the others' name indexes follow the catalog's generation).
        return try await lease.holding {
            guard try await database.catalog.gameCount() == 0 else { return 0 }
            return try await loadBundled().added
        }
    }

    func loadBundled() async throws -> ImportReport {
        guard let path = BundledCatalog.path else {
            throw CatalogImporter.ReadError(description: "the bundled catalog file is missing from the build")
        }
        let report = try await CatalogImporter(database: database).importFile(path)
        try await database.catalogState.set("last_refresh", String(Date().timeIntervalSince1970))
        if let fingerprint = BundledCatalog.fingerprint(ofFileAt: path) {
            try await database.catalogState.set("bundled.fingerprint", fingerprint)
        }
        try await index.reload()
        return report
    }

    /// Call after games were imported from elsewhere, so typo correction knows their words.
    package func reloadVocabulary() async throws {
        try await index.reload()
        facetMatchers.forget()
    }

    package func search(_ query: String, filter: CatalogFilter, limit: Int) async throws -> [SearchHit] {
        try await index.search(query, filter: filter, limit: limit)
    }

    package func lookup(_ query: String, filter: CatalogFilter, limit: Int) async throws -> Lookup {
        let local = try await index.searchCountingHidden(query, filter: filter, limit: limit)
        func answer(
            _ found: (hits: [SearchHit], ageRestricted: Int, partial: Bool, hiddenExact: Bool), problem: String? = nil
        ) -> Lookup {
            var lookup = Lookup(
                hits: found.hits, ageRestricted: found.ageRestricted, ageRestrictedIsPartial: found.partial,
                providerProblem: problem)
            lookup.ageRestrictedHasExactWords = found.hiddenExact
            return lookup
        }
        guard let provider else { return answer(local) }
        // Enough good local matches (the age gate's too), or the provider was asked the same recently: no call.
        let key = TextNormalizer.words(query).joined(separator: " ")
        if local.hits.filter(\.matchedAllWords).count + local.ageRestricted >= 3 || key.isEmpty {
            return answer(local)
        }
        if let last = try await database.catalogState.providerLookup(provider: provider.name, query: key),
            Date().timeIntervalSince(last) < lookupTTL
        {
            return answer(local)
        }
        let records: [CatalogRecord]
        do {
            records = try await ask(provider) { try await provider.search(query, limit: 20) }
        } catch let error as ProviderUnavailable {
            return answer(
                local,
                problem:
                    "The \(provider.name) catalog service is unreachable right now; try again in \(error.retryAfter) s. Here is what I have locally."
            )
        } catch {
            return answer(
                local,
                problem:
                    "The \(provider.name) catalog service is unreachable right now (\(error)); here is what I have locally."
            )
        }
        // Storing the answer is this server's work, not the provider's: its failure is ours to report.
        try await database.catalogState.recordProviderLookup(
            provider: provider.name, query: key, records: records, at: Date())
        if !records.isEmpty { try await index.reload() }
        return answer(try await index.searchCountingHidden(query, filter: filter, limit: limit))
    }

    /// One call to the provider: refused at once while the circuit is open, and bounded by `providerTimeout`.
    func ask<T: Sendable>(
        _ provider: any CatalogProvider, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        if let wait = breaker.retryAfter() { throw ProviderUnavailable(provider: provider.name, retryAfter: wait) }
        do {
            let timeout = providerTimeout
            let value = try await withThrowingTaskGroup(of: T.self) { group in
                group.addTask { try await work() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw CatalogImporter.ReadError(description: "no answer within \(timeout)")
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
            breaker.succeeded()
            return value
        } catch {
            breaker.failed()
            throw error
        }
    }

    package func rank(_ query: String, among games: [Game]) -> [SearchHit] {
        index.rank(query, among: games)
    }

    package func autocomplete(_ text: String, includeMature: Bool, limit: Int) async throws -> [Game] {
        try await index.autocomplete(text, includeMature: includeMature, limit: limit)
    }

    /// From the local catalog, or else fetched from the provider the reference belongs to and stored.
    package func game(_ ref: GameRef) async throws -> Game? {
        if let game = try await database.catalog.game(ref) { return game }
        guard let provider, let record = try? await ask(provider, { try await provider.game(ref) }) else { return nil }
        try await database.catalog.upsertGames([record])
        return try await database.catalog.game(ref)
    }

    /// The game with every field its card shows: when the provider's search left some out, its own page is
    /// fetched once and stored (not again within `lookupTTL`, even when the page has none of them).
    package func details(of game: Game) async throws -> Game {
        guard let provider, provider.lacksDetails(game) else { return game }
        let key = "details \(game.ref)"
        if let last = try await database.catalogState.providerLookup(provider: provider.name, query: key),
            Date().timeIntervalSince(last) < lookupTTL
        {
            return game
        }
        guard let record = try? await ask(provider, { try await provider.game(game.ref) }) else { return game }
        try await database.catalogState.recordProviderLookup(
            provider: provider.name, query: key, records: [record], at: Date())
        return try await database.catalog.game(game.ref) ?? game
    }

    package func top(filter: CatalogFilter, minimumRatings: Int, page: Int, pageSize: Int) async throws -> Page<Game> {
        try await database.catalog.top(filter: filter, minimumRatings: minimumRatings, page: page, pageSize: pageSize)
    }

    package func browse(
        _ kind: FacetKind, name: String, includeMature: Bool, page: Int, pageSize: Int
    ) async throws -> Page<Game> {
        try await database.catalog.browse(
            kind, name: name, includeMature: includeMature, page: page, pageSize: pageSize)
    }

    package func facetNames(_ kind: FacetKind) async throws -> [String] {
        try await database.catalog.facetNames(kind)
    }

    package func facetName(_ kind: FacetKind, for typed: String, typos: Bool) async throws -> FacetName {
        try await facetMatchers.matcher(kind, generation: index.names.generation) {
            try await database.catalog.facetNames(kind)
        }
        .resolve(typed, typos: typos)
    }

    package func facetNames(_ kind: FacetKind, matching text: String, limit: Int) async throws -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let names = try await database.catalog.facetNames(kind, containing: trimmed, limit: limit)
        // Nothing contains it: try its start ("Platformer" → "Platform", "Playstation 55" → "PlayStation 5").
        if names.isEmpty, trimmed.count >= 5 {
            return try await database.catalog.facetNames(
                kind, containing: String(trimmed.prefix(max(4, trimmed.count - 3))), limit: limit)
        }
        return names
    }

    package func hasUnreleased(after now: Date) async throws -> Bool {
        try await database.library.hasUnreleased(after: now)
    }

    package func status() async throws -> CatalogStatus {
        let last = try await database.catalogState.value("last_refresh").flatMap(Double.init).map(
            Date.init(timeIntervalSince1970:))
        let (running, summary) = refreshState.snapshot
        let elsewhere = try await lease.heldElsewhere()
        var status = await CatalogStatus(
            provider: providerName, games: try database.catalog.gameCount(), lastRefresh: last,
            attribution: BundledCatalog.attribution,
            refreshing: running || elsewhere, lastSummary: summary)
        if let current = refreshState.progress {
            status.details["Progress"] = "\(current.done)" + (current.total.map { " of \($0)" } ?? "") + " games"
        }
        if igdb != nil {
            let checkpoint = try await database.catalogState.value("igdb.checkpoint").flatMap(Double.init)
            status.details["Checkpoint"] =
                checkpoint.map { "updated after \(Format.date(Date(timeIntervalSince1970: $0)))" }
                ?? "none (the next refresh takes everything)"
            status.details["IGDB requests"] = try await database.catalogState.value("igdb.requests") ?? "0"
            if let resume = try await database.catalogState.value("igdb.run.after_id") {
                status.details["Interrupted refresh"] = "resumes after IGDB id \(resume)"
            }
        }
        return status
    }
}
