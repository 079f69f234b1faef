import Foundation
import GGTrackerStorage
import Testing

@Suite struct ProcessorsTests {
    @Test func aProcessPinnedToOneCPUCountsOne() throws {
        // The status of a process started under `taskset -c 0`, as the kernel writes it.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        process.arguments = ["-c", "0", "cat", "/proc/self/status"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let status = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(status.contains("Cpus_allowed:"))
        #expect(Processors.allowed(inStatus: status) == 1)
    }

    @Test func theMaskIsCountedAcrossItsWords() {
        #expect(Processors.allowed(inStatus: "Name:\tx\nCpus_allowed:\tff,00000003\nCpus_allowed_list:\t0-1\n") == 10)
        #expect(Processors.allowed(inStatus: "Name:\tx\n") == 0)
    }

    @Test func theUsableCountIsWithinWhatTheSystemHas() {
        #expect(Processors.usable >= 1)
        #expect(Processors.usable <= ProcessInfo.processInfo.activeProcessorCount)
        #expect(Processors.usable <= max(1, Processors.allowed()))
    }
}
