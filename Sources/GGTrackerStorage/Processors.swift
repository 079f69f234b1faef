import Foundation

/// How many CPUs this process may run on: its affinity mask (`Cpus_allowed` in `/proc/self/status`, which `taskset`
/// and a container's cpuset narrow), at most the processors the system reports active. Threads beyond that only take
/// turns on the same cores.
package enum Processors {
    package static let usable: Int = {
        let active = ProcessInfo.processInfo.activeProcessorCount
        let mask = allowed()
        return mask > 0 ? min(active, mask) : active
    }()

    /// The CPUs in this process's affinity mask; 0 when it cannot be read.
    package static func allowed() -> Int {
        (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)).map(allowed(inStatus:)) ?? 0
    }

    /// The CPUs of the `Cpus_allowed` line of a `/proc/PID/status` text; 0 without one.
    package static func allowed(inStatus status: String) -> Int {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else {
            return 0
        }
        // Hexadecimal words separated by commas: "00000000,00000003".
        return line.dropFirst("Cpus_allowed:".count).reduce(0) { count, character in
            count + (character.hexDigitValue?.nonzeroBitCount ?? 0)
        }
    }
}
