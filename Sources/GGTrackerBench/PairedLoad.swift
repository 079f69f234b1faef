import Foundation

/// Two servers measured at once: the same closed loop sent to each by its own load generator, both servers on the
/// same core, and the CPU time each server's processes used in those seconds. Figures taken in turn move with the
/// machine's speed (up to twice over a day here); taken in the same seconds, a slow spell slows both alike, so the
/// ratio of their CPU time per request stays put where the ratio of rates measured one after the other does not.
enum PairedLoad {
    /// What one server answered in a paired run and the CPU time its processes used meanwhile.
    struct Share {
        var result: LoadResult
        var cpuSeconds: Double
        /// CPU time per answered request, in microseconds.
        var microsecondsPerRequest: Double { cpuSeconds * 1e6 / Double(max(1, result.requests)) }
    }

    /// Runs the `taskset` argument lists of two (or more) `bench load` processes at once and returns each one's
    /// result with the CPU time of the matching group of server processes.
    static func run(_ loads: [[String]], watching groups: [[Int32]], in directory: URL) throws -> [Share] {
        let outputs = loads.indices.map { directory.appendingPathComponent("paired-\($0).json") }
        defer { outputs.forEach { try? FileManager.default.removeItem(at: $0) } }
        let before = groups.map(cpuSeconds(of:))
        let processes = try zip(loads, outputs).map { try Pinned.spawn($0, output: $1) }
        processes.forEach { $0.waitUntilExit() }
        let after = groups.map(cpuSeconds(of:))
        return try zip(processes, outputs).enumerated().map { index, pair in
            let (process, output) = pair
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            // Standard error shares the file: the result is the last line.
            let last = text.split(separator: "\n").last.map(String.init) ?? ""
            guard process.terminationStatus == 0,
                let result = try? JSONDecoder().decode(LoadResult.self, from: Data(last.utf8))
            else {
                throw BenchFailure("a paired load exited with \(process.terminationStatus): \(text.suffix(300))")
            }
            return Share(result: result, cpuSeconds: after[index] - before[index])
        }
    }

    /// CPU time (user and system, every thread) the processes have used so far, in seconds, from `/proc/PID/stat`.
    static func cpuSeconds(of processes: [Int32]) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return processes.reduce(0) { total, pid in
            guard let fields = statFields(of: pid), fields.count > 12, let user = Double(fields[11]),
                let system = Double(fields[12])
            else { return total }
            return total + (user + system) / ticks
        }
    }
}
