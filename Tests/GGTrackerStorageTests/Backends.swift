import Foundation
import GGTrackerStorage
import Testing

/// The storage backends a test runs against. PostgreSQL is used when `GGTRACKER_TEST_POSTGRES` names a server
/// (`postgres://user@host:port/database`); each test gets a schema of its own there.
enum Backend: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    /// Empty is unset, as a shell line `GGTRACKER_TEST_POSTGRES= swift test` means.
    static let postgresURL = ProcessInfo.processInfo.environment["GGTRACKER_TEST_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Both when a PostgreSQL server is configured, and always both in continuous integration (where a missing
    /// server is then a failure, not a skip).
    static var all: [Backend] {
        postgresURL != nil || ProcessInfo.processInfo.environment["CI"] != nil ? [.sqlite, .postgres] : [.sqlite]
    }

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    func open() async throws -> AppDatabase {
        switch self {
        case .sqlite: return try AppDatabase.inMemory()
        case .postgres:
            let base = try #require(Backend.postgresURL, "GGTRACKER_TEST_POSTGRES is not set")
            let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
            return try await AppDatabase.open(
                base + (base.contains("?") ? "&" : "?") + "schema=\(schema)", connections: 4)
        }
    }
}
