import Foundation
import Testing

/// The bench's command line refuses what it cannot measure before it starts anything.
@Suite("The bench's command line")
struct BenchCommandTests {
    @Test(arguments: [["bench", "interactions"], ["bench", "catalog"]])
    func aPeerFolderWithoutItsProgramIsRefusedBeforeAnythingStarts(_ command: [String]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output) = try ServerProcess.command(command + ["--peer", folder.path])
        #expect(status == 64, "a usage error")
        #expect(output.contains("--peer: \(folder.path) has no executable ggtracker"), "\(output)")
        // Refused at once: no server was started, no catalog written.
        #expect(!output.contains("server(s) on CPUs"))
        #expect(!output.contains("games written"))
    }
}
