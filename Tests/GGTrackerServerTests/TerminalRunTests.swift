import Foundation
import Testing

/// `ggtracker run` answers as chat does, and stays for work that goes on after the answer.
@Suite("Commands in the terminal")
struct TerminalRunTests {
    @Test(.enabled(if: ServerProcess.binaryExists), .timeLimit(.minutes(3)))
    func aCatalogRefreshIsFollowedToItsEnd() async throws {
        let path = Scratch.path("terminal-refresh.sqlite")
        let refresh = try await ServerProcess.commandInBackground(
            ["run", "--database", path, "/admin catalog refresh", "--user", "ada", "--admin"])
        #expect(refresh.status == 0, "\(refresh.output)")
        // The answer, then the result: the process did not stop the refresh it started.
        let started = try #require(refresh.output.range(of: "Catalog refresh (incremental) started"))
        let done = try #require(refresh.output.range(of: "Catalog refresh (incremental) done: "))
        #expect(started.upperBound < done.lowerBound, "\(refresh.output)")
        // Nothing is left running for the next command.
        let status = try await ServerProcess.commandInBackground(
            ["run", "--database", path, "/admin catalog status", "--user", "ada", "--admin"])
        #expect(status.output.contains("Refresh: none since start-up"), "\(status.output)")
        #expect(!status.output.contains("running now"), "\(status.output)")
    }
}
