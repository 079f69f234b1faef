import Foundation
import GRDB

extension AppDatabase {
    /// The response already given to a delivery with this id (Discord interaction id, Matrix transaction id…).
    package func processedResponse(_ id: String) async throws -> Data? {
        try await reader.read { db in
            try Data.fetchOne(db, sql: "SELECT response FROM processed_interactions WHERE id = ?", arguments: [id])
        }
    }

    /// Remembers the response given to a delivery, so a retry is answered the same and applied once.
    package func recordProcessed(_ id: String, response: Data, at now: Date = Date()) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO processed_interactions (id, response, created_at) VALUES (?, ?, ?)",
                arguments: [id, response, now.timeIntervalSince1970])
        }
    }

    /// Stores a command line too long for a button id; returns the short key that stands for it.
    package func savePendingCommand(_ command: String, at now: Date = Date()) async throws -> String {
        var bytes = [UInt8](repeating: 0, count: 12)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
        let key = bytes.map { String(format: "%02x", $0) }.joined()
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO pending_commands (id, command, created_at) VALUES (?, ?, ?)",
                arguments: [key, command, now.timeIntervalSince1970])
        }
        return key
    }

    package func pendingCommand(_ key: String) async throws -> String? {
        try await reader.read { db in
            try String.fetchOne(db, sql: "SELECT command FROM pending_commands WHERE id = ?", arguments: [key])
        }
    }
}
