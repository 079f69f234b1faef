import CZlib
import Foundation
import GGTrackerCore
import GGTrackerStorage

/// What an import did, with the lines it could not use.
package struct ImportReport: Sendable, Equatable {
    package var added = 0
    package var updated = 0
    package var problems: [Problem] = []

    package struct Problem: Sendable, Equatable {
        package var line: Int
        package var message: String
    }

    package var skipped: Int { problems.count }
    package init() {}
}

/// Loads games in IGDB's JSON shape — a JSON array or JSON Lines, plain or gzip-compressed — into the catalog,
/// one transaction per batch, upserting by id so it can be re-run.
package struct CatalogImporter: Sendable {
    package var database: AppDatabase
    package var batchSize: Int

    package init(database: AppDatabase, batchSize: Int = 2_000) {
        self.database = database
        self.batchSize = batchSize
    }

    package struct ReadError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Reads a whole file; gzip is detected and inflated transparently.
    package static func readFile(_ path: String) throws -> Data {
        guard let file = gzopen(path, "rb") else { throw ReadError(description: "cannot open \(path)") }
        defer { gzclose(file) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = gzread(file, &buffer, UInt32(buffer.count))
            if n < 0 { throw ReadError(description: "\(path) is not readable (corrupt compressed data?)") }
            if n == 0 { break }
            data.append(buffer, count: Int(n))
        }
        return data
    }

    /// Where each line of the data is, found with `memchr` (splitting `Data` element by element is slow).
    static func lineRanges(_ data: Data) -> [Range<Int>] {
        data.withUnsafeBytes { buffer -> [Range<Int>] in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return [] }
            var ranges: [Range<Int>] = []
            var start = 0
            while start < buffer.count {
                let rest = buffer.count - start
                if let found = memchr(base + start, 0x0A, rest) {
                    let end = base.distance(to: UnsafeRawPointer(found))
                    ranges.append((data.startIndex + start)..<(data.startIndex + end))
                    start = end + 1
                } else {
                    ranges.append((data.startIndex + start)..<(data.startIndex + buffer.count))
                    start = buffer.count
                }
            }
            return ranges
        }
    }

    package func importFile(_ path: String, progress: (@Sendable (Int) -> Void)? = nil) throws -> ImportReport {
        try importData(try Self.readFile(path), progress: progress)
    }

    package func importData(_ data: Data, progress: (@Sendable (Int) -> Void)? = nil) throws -> ImportReport {
        var report = ImportReport()
        var batch: [CatalogRecord] = []
        var seen = 0
        func flush() throws {
            guard !batch.isEmpty else { return }
            let counts = try database.upsertGames(batch)
            report.added += counts.added
            report.updated += counts.updated
            seen += batch.count
            batch.removeAll(keepingCapacity: true)
            progress?(seen)
        }
        let firstByte = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        if firstByte == UInt8(ascii: "[") {
            let array: [Any]
            do {
                guard let parsed = try JSONSerialization.jsonObject(with: data) as? [Any] else {
                    throw ReadError(description: "expected a JSON array")
                }
                array = parsed
            } catch {
                report.problems.append(.init(line: 1, message: "malformed JSON array: \(error)"))
                return report
            }
            for (index, item) in array.enumerated() {
                guard let object = item as? [String: Any] else {
                    report.problems.append(.init(line: index + 1, message: "item \(index + 1) is not a JSON object"))
                    continue
                }
                do {
                    batch.append(try IGDBGameMapping.record(from: object))
                } catch {
                    report.problems.append(.init(line: index + 1, message: "item \(index + 1): \(error.message)"))
                }
                if batch.count >= batchSize { try flush() }
            }
        } else {
            var lineNumber = 0
            for range in Self.lineRanges(data) {
                lineNumber += 1
                let line = data[range]
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
                guard let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else {
                    report.problems.append(.init(line: lineNumber, message: "line \(lineNumber) is not a JSON object"))
                    continue
                }
                do {
                    batch.append(try IGDBGameMapping.record(from: object))
                } catch {
                    report.problems.append(.init(line: lineNumber, message: "line \(lineNumber): \(error.message)"))
                }
                if batch.count >= batchSize { try flush() }
            }
        }
        try flush()
        return report
    }
}
