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
    package static func lineRanges(_ data: Data) -> [Range<Int>] {
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
        let items: Int
        let parse: @Sendable (Int) -> Result<CatalogRecord, ImportReport.Problem>?
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
            let box = UncheckedBox(array)
            items = array.count
            parse = { index in
                guard let object = box.value[index] as? [String: Any] else {
                    return .failure(.init(line: index + 1, message: "item \(index + 1) is not a JSON object"))
                }
                return Self.record(object, line: index + 1, label: "item \(index + 1)")
            }
        } else {
            let lines = Self.lineRanges(data)
            let reader = JSONLineReader(keep: IGDBGameMapping.fields)
            items = lines.count
            parse = { index in
                let line = data[lines[index]]
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { return nil }
                guard let object = try? reader.object(line) else {
                    return .failure(.init(line: index + 1, message: "line \(index + 1) is not a JSON object"))
                }
                return Self.record(object, line: index + 1, label: "line \(index + 1)")
            }
        }
        // Lines are parsed on every core, a batch at a time, while the batches before are being stored.
        let parser = ParallelBatches(items: items, batchSize: batchSize, parse: parse)
        defer { parser.stop() }
        var seen = 0
        func next() -> [CatalogRecord]? {
            guard let batch = parser.next() else { return nil }
            report.problems += batch.problems
            seen += batch.records.count
            progress?(seen)
            return batch.records
        }
        if let counts = try database.loadIntoEmptyCatalog(next) {
            report.added = counts.added
            report.updated = counts.updated
        } else {
            while let batch = next() {
                let counts = try database.upsertGames(batch)
                report.added += counts.added
                report.updated += counts.updated
            }
        }
        return report
    }

    static func record(
        _ object: [String: Any], line: Int, label: String
    ) -> Result<CatalogRecord, ImportReport.Problem> {
        do {
            return .success(try IGDBGameMapping.record(from: object))
        } catch {
            return .failure(.init(line: line, message: "\(label): \(error.message)"))
        }
    }
}

extension ImportReport.Problem: Error {}

/// A value shared read-only between threads.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Parses items on background threads, one batch per task, and hands the batches out in order; at most a few
/// batches wait parsed, so memory stays bounded however large the file.
final class ParallelBatches: @unchecked Sendable {
    struct Batch {
        var records: [CatalogRecord] = []
        var problems: [ImportReport.Problem] = []
    }

    private let condition = NSCondition()
    private var parsed: [Int: Batch] = [:]
    private var claimed = 0
    private var consumed = 0
    private var stopped = false
    private let batches: Int
    private let window: Int

    init(
        items: Int, batchSize: Int, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        parse: @escaping @Sendable (Int) -> Result<CatalogRecord, ImportReport.Problem>?
    ) {
        batches = (items + batchSize - 1) / batchSize
        window = 2 * max(1, workers)
        for _ in 0..<max(1, workers) {
            let thread = Thread { [self] in
                while let index = claim() {
                    var batch = Batch()
                    for item in (index * batchSize)..<min(items, (index + 1) * batchSize) {
                        switch parse(item) {
                        case .success(let record): batch.records.append(record)
                        case .failure(let problem): batch.problems.append(problem)
                        case nil: break
                        }
                    }
                    condition.withLock {
                        parsed[index] = batch
                        condition.broadcast()
                    }
                }
            }
            thread.start()
        }
    }

    private func claim() -> Int? {
        condition.withLock {
            while !stopped, claimed < batches, claimed >= consumed + window { condition.wait() }
            guard !stopped, claimed < batches else { return nil }
            claimed += 1
            return claimed - 1
        }
    }

    /// The next batch in order, waiting for it to be parsed; nil after the last.
    func next() -> Batch? {
        condition.withLock {
            guard consumed < batches, !stopped else { return nil }
            while parsed[consumed] == nil { condition.wait() }
            let batch = parsed.removeValue(forKey: consumed)
            consumed += 1
            condition.broadcast()
            return batch
        }
    }

    /// Lets the threads end early (the import failed).
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}
