import ArgumentParser
import Foundation

/// `ggtracker bench`: measurements of this machine, printed as medians and percentiles of repeated runs.
package struct Bench: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Measure the bot: signed interactions, latency, catalog search and import.",
        subcommands: [
            Interactions.self, CatalogBench.self, SteamImportBench.self, Verify.self, Load.self, Responder.self,
        ])
}

// MARK: - Statistics

struct Samples {
    var values: [Double] = []

    mutating func add(_ value: Double) { values.append(value) }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank]
    }

    var median: Double { percentile(50) }
}

/// Prints a line at once, also when standard output is a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// Resident and peak memory of a process, in MiB, from `/proc/PID/status`.
func memory(of pid: Int32 = getpid()) -> (rss: Double, peak: Double) {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Double {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }
    return (field("VmRSS"), field("VmHWM"))
}

/// A Markdown table with this server's figure, the peer's and their ratio (the peer's columns only when a
/// peer was measured).
struct SideBySide {
    enum Ratio { case higherIsBetter, lowerIsBetter, none }
    var peer: Bool

    func header(_ measure: String) {
        say("")
        say(peer ? "| \(measure) | GGTracker | peer | ratio | target |" : "| \(measure) | GGTracker | target |")
        say(peer ? "| --- | --- | --- | --- | --- |" : "| --- | --- | --- |")
    }

    /// The ratio is GGTracker ÷ peer: above 1 is better for rates, below 1 for times.
    func row(_ name: String, _ ours: Double, _ theirs: Double?, digits: Int, ratio: Ratio, target: String) {
        guard peer else { return say("| \(name) | \(format(ours, digits)) | \(target) |") }
        let theirText = theirs.map { format($0, digits) } ?? "—"
        var ratioText = "—"
        if let theirs, theirs > 0, ours > 0 {
            switch ratio {
            case .higherIsBetter, .lowerIsBetter: ratioText = format(ours / theirs) + "×"
            case .none: break
            }
        }
        say("| \(name) | \(format(ours, digits)) | \(theirText) | \(ratioText) | \(target) |")
    }
}
