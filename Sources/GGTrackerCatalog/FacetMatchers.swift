import Foundation
import GGTrackerCore

/// The catalog's genre, platform, mode and engine names, ready to resolve what people type (`FacetName.Matcher`),
/// kept while the catalog stays the one the name index was built from: a search asks whether its last words name
/// one, and the names change only with the catalog.
final class FacetMatchers: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [FacetKind: (matcher: FacetName.Matcher, generation: Int)] = [:]

    func matcher(
        _ kind: FacetKind, generation: Int, load: () async throws -> [String]
    ) async throws -> FacetName.Matcher {
        if let entry = lock.withLock({ kept[kind] }), entry.generation == generation { return entry.matcher }
        let matcher = FacetName.Matcher(try await load())
        lock.withLock { kept[kind] = (matcher, generation) }
        return matcher
    }

    /// After the catalog changed here: the next look-up reads the names again.
    func forget() { lock.withLock { kept.removeAll() } }
}
