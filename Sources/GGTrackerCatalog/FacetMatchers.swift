import Foundation
import GGTrackerCore

/// The catalog's genre, platform, mode and engine names, ready to resolve what people type (`FacetName.Matcher`),
/// kept for a minute: a search asks whether its last words name one, and the names change only with the catalog.
final class FacetMatchers: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [FacetKind: (matcher: FacetName.Matcher, until: ContinuousClock.Instant)] = [:]
    static let lifetime: Duration = .seconds(60)

    func matcher(_ kind: FacetKind, load: () async throws -> [String]) async throws -> FacetName.Matcher {
        let now = ContinuousClock.now
        if let entry = lock.withLock({ kept[kind] }), entry.until > now { return entry.matcher }
        let matcher = FacetName.Matcher(try await load())
        lock.withLock { kept[kind] = (matcher, now + Self.lifetime) }
        return matcher
    }

    /// After the catalog changed here: the next look-up reads the names again.
    func forget() { lock.withLock { kept.removeAll() } }
}
