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
    /// No other program is meant to use the database during the import (the command line's import): a load into
    /// an empty catalog may then write straight to the database file (`CatalogRecords.loadIntoEmptyCatalog`).
    package var alone = false

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

    /// Imports a file, plain or gzip-compressed. JSON Lines are read a few megabytes at a time, so memory stays
    /// bounded however large the file.
    package func importFile(_ path: String, progress: (@Sendable (Int) -> Void)? = nil) async throws -> ImportReport {
        let chunks = try LineChunks(path: path)
        if chunks.startsWithArray {
            return try await importData(try Self.readFile(path), progress: progress)
        }
        return try await importLines(next: chunks.next, progress: progress)
    }

    package func importData(_ data: Data, progress: (@Sendable (Int) -> Void)? = nil) async throws -> ImportReport {
        let firstByte = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        guard firstByte == UInt8(ascii: "[") else {
            // Lines, handed out in pieces of about a thousand lines.
            let lines = Self.lineRanges(data)
            var start = 0
            return try await importLines(
                next: {
                    guard start < lines.count else { return nil }
                    let end = min(lines.count, start + 1_000)
                    defer { start = end }
                    return (data[lines[start].lowerBound..<lines[end - 1].upperBound], start + 1)
                }, progress: progress)
        }
        let array: [Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [Any] else {
                throw ReadError(description: "expected a JSON array")
            }
            array = parsed
        } catch {
            var report = ImportReport()
            report.problems.append(.init(line: 1, message: "malformed JSON array: \(error)"))
            return report
        }
        let box = UncheckedBox(array)
        var start = 0
        let batchSize = self.batchSize
        return try await importBatches(
            ParallelBatches<Range<Int>>(
                source: {
                    guard start < box.value.count else { return nil }
                    let end = min(box.value.count, start + batchSize)
                    defer { start = end }
                    return start..<end
                },
                parse: { (range: Range<Int>) in
                    var batch = ParallelBatches<Range<Int>>.Batch()
                    for index in range {
                        guard let object = box.value[index] as? [String: Any] else {
                            batch.problems.append(
                                .init(line: index + 1, message: "item \(index + 1) is not a JSON object"))
                            continue
                        }
                        batch.add(
                            Self.record(IGDBGameMapping.Fields(object), line: index + 1, label: "item \(index + 1)"))
                    }
                    return batch
                }), progress: progress)
    }

    /// Imports JSON Lines given as pieces of whole lines with the number of their first line.
    func importLines(
        next: @escaping () throws -> (Data, Int)?, progress: (@Sendable (Int) -> Void)?
    ) async throws -> ImportReport {
        let reader = JSONLineReader()
        return try await importBatches(
            ParallelBatches<(Data, Int)>(
                source: next,
                parse: { piece in
                    let (data, firstLine) = piece
                    var batch = ParallelBatches<(Data, Int)>.Batch()
                    let ranges = Self.lineRanges(data)
                    batch.records.reserveCapacity(ranges.count)
                    for (offset, range) in ranges.enumerated() {
                        let line = data[range]
                        if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
                        let number = firstLine + offset
                        guard let fields = try? reader.igdbFields(line) else {
                            batch.problems.append(.init(line: number, message: "line \(number) is not a JSON object"))
                            continue
                        }
                        batch.add(Self.record(fields, line: number, label: "line \(number)"))
                    }
                    return batch
                }), progress: progress)
    }

    /// Stores parsed batches in order: in one bulk load when the catalog is empty (a file that cannot be read to
    /// the end stores nothing), else as upserts, a transaction a batch.
    func importBatches<Work>(
        _ parser: ParallelBatches<Work>, progress: (@Sendable (Int) -> Void)?
    ) async throws -> ImportReport {
        defer { parser.stop() }
        var report = ImportReport()
        var seen = 0
        // A bulk load stores games only: their Steam app ids are filed once it is done.
        var steamApps: [(Int64, GameRef)] = []
        func next() throws -> [CatalogRecord]? {
            guard let batch = try parser.next() else { return nil }
            report.problems += batch.problems
            seen += batch.records.count
            // Read in place: a game passed by value would retain and release some twenty values.
            for index in batch.records.indices where !batch.records[index].steamAppIDs.isEmpty {
                let ref = batch.records[index].game.ref
                for app in batch.records[index].steamAppIDs { steamApps.append((app, ref)) }
            }
            progress?(seen)
            return batch.records
        }
        if let counts = try await database.catalog.loadIntoEmptyCatalog(alone: alone, next) {
            report.added = counts.added
            report.updated = counts.updated
            try await database.steamApps.store(steamApps)
        } else {
            while let batch = try next() {
                let counts = try await database.catalog.upsertGames(batch)
                report.added += counts.added
                report.updated += counts.updated
            }
        }
        return report
    }

    static func record(
        _ fields: IGDBGameMapping.Fields, line: Int, label: @autoclosure () -> String
    ) -> Result<CatalogRecord, ImportReport.Problem> {
        do {
            return .success(try IGDBGameMapping.record(from: fields))
        } catch {
            return .failure(.init(line: line, message: "\(label()): \(error.message)"))
        }
    }
}

extension ImportReport.Problem: Error {}

/// A value shared read-only between threads.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A compressed or plain file read in pieces of whole lines.
final class LineChunks: @unchecked Sendable {
    private let file: gzFile
    private let path: String
    private var carry = Data()
    private var buffer = [UInt8](repeating: 0, count: 4 << 20)
    private var nextLine = 1
    private var finished = false
    /// Whether the file's first non-blank byte opens a JSON array.
    let startsWithArray: Bool

    init(path: String) throws {
        guard let file = gzopen(path, "rb") else { throw CatalogImporter.ReadError(description: "cannot open \(path)") }
        self.file = file
        self.path = path
        gzbuffer(file, 1 << 20)
        var first: Int32
        repeat { first = gzgetc(file) } while first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09
        startsWithArray = first == Int32(UInt8(ascii: "["))
        gzrewind(file)
    }

    deinit { gzclose(file) }

    /// The next piece of about 4 MB of whole lines and the number of its first line; nil at the end.
    func next() throws -> (Data, Int)? {
        guard !finished else { return nil }
        let n = gzread(file, &buffer, UInt32(buffer.count))
        if n < 0 { throw CatalogImporter.ReadError(description: "\(path) is not readable (corrupt compressed data?)") }
        var piece = carry
        piece.append(buffer, count: Int(n))
        if n == 0 {
            finished = true
            carry = Data()
            return piece.isEmpty ? nil : (piece, nextLine)
        }
        // Whole lines only: the bytes after the last newline start the next piece.
        guard let lastNewline = piece.lastIndex(of: 0x0A) else {
            carry = piece
            return try next()
        }
        carry = piece[(lastNewline + 1)...]
        let lines = piece[..<(lastNewline + 1)]
        let whole = Data(lines)
        defer { nextLine += Self.newlines(in: whole) }
        return (whole, nextLine)
    }

    /// How many newlines the bytes hold, found with the C library's `memchr` rather than byte by byte.
    static func newlines(in data: Data) -> Int {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var count = 0
            var at = base
            let end = base + bytes.count
            while at < end, let found = memchr(at, 0x0A, end - at) {
                count += 1
                at = UnsafeRawPointer(found) + 1
            }
            return count
        }
    }
}

/// Parses pieces of work on background threads and hands their batches out in order; at most a few batches
/// wait parsed, so memory stays bounded however large the input. `source` is called on one thread at a time.
final class ParallelBatches<Work: Sendable>: @unchecked Sendable {
    struct Batch {
        var records: [CatalogRecord] = []
        var problems: [ImportReport.Problem] = []

        /// Takes the record or problem over, without a copy.
        mutating func add(_ result: consuming Result<CatalogRecord, ImportReport.Problem>) {
            switch consume result {
            case .success(let record): records.append(record)
            case .failure(let problem): problems.append(problem)
            }
        }
    }

    private let condition = NSCondition()
    private var parsed: [Int: Batch] = [:]
    private var claimed = 0
    private var consumed = 0
    /// How many pieces the source had, once it has run out.
    private var total: Int?
    private var failure: (any Error)?
    private var stopped = false
    private let window: Int
    private let source: () throws -> Work?

    init(
        workers: Int = Processors.usable, source: @escaping () throws -> Work?,
        parse: @escaping @Sendable (Work) -> Batch
    ) {
        self.source = source
        window = 2 * max(1, workers)
        for _ in 0..<max(1, workers) {
            let thread = Thread { [self] in
                while let (index, work) = claim() {
                    let batch = parse(work)
                    condition.withLock {
                        parsed[index] = batch
                        condition.broadcast()
                    }
                }
            }
            thread.start()
        }
    }

    private func claim() -> (Int, Work)? {
        condition.withLock {
            while !stopped, total == nil, claimed >= consumed + window { condition.wait() }
            guard !stopped, total == nil else { return nil }
            do {
                guard let work = try source() else {
                    total = claimed
                    condition.broadcast()
                    return nil
                }
                claimed += 1
                return (claimed - 1, work)
            } catch {
                failure = error
                total = claimed
                condition.broadcast()
                return nil
            }
        }
    }

    /// The next batch in order, waiting for it to be parsed; nil after the last.
    func next() throws -> Batch? {
        try condition.withLock {
            while !stopped, parsed[consumed] == nil, total.map({ consumed < $0 }) ?? true { condition.wait() }
            guard !stopped, let batch = parsed.removeValue(forKey: consumed) else {
                if let failure { throw failure }
                return nil
            }
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
