import AsyncHTTPClient
import Foundation
import Testing

/// `ggtracker run` answers as chat does, and stays for work that goes on after the answer.
@Suite("Commands in the terminal")
struct TerminalRunTests {
    @Test(.enabled(if: ServerProcess.binaryExists), .timeLimit(.minutes(5)))
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

    /// A backup never overwrites a file, and says so in the terminal's words.
    @Test(.enabled(if: ServerProcess.binaryExists), .timeLimit(.minutes(5)))
    func aBackupOverAnExistingFileIsRefusedPlainly() async throws {
        let path = Scratch.path("terminal-backup.sqlite")
        let copy = Scratch.path("terminal-backup-copy.sqlite")
        let first = try await ServerProcess.commandInBackground(["db", "backup", copy, "--database", path])
        #expect(first.status == 0 && first.output.contains("Backed up"), "\(first.output)")
        let size = try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int
        let again = try await ServerProcess.commandInBackground(["db", "backup", copy, "--database", path])
        #expect(again.status != 0, "\(again.output)")
        #expect(
            again.output.contains("Cannot back up: \(copy) already exists; choose a new file. Nothing was written."),
            "\(again.output)")
        #expect(!again.output.contains("SQLite error"), "\(again.output)")
        // What went wrong is no typing mistake: the usage line would only hide it.
        #expect(again.status == 1 && !again.output.contains("Usage:"), "\(again.output)")
        #expect(try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int == size)
        // A typing mistake gets the usage of the command typed, not of ggtracker as a whole.
        let mistyped = try await ServerProcess.commandInBackground(["import", "--user", "cli:ada", "--database", path])
        #expect(mistyped.output.contains("Error: Give a CSV file or --steam ACCOUNT."), "\(mistyped.output)")
        #expect(mistyped.output.contains("Usage: ggtracker import "), "\(mistyped.output)")
        let unread = try await ServerProcess.commandInBackground(
            ["import", "/nonexistent.csv", "--user", "cli:ada", "--database", path])
        #expect(unread.status == 1 && unread.output == "Error: Cannot read /nonexistent.csv.\n", "\(unread.output)")
    }

    /// A port already taken (here by another `ggtracker serve`) is said plainly, and the second server stops.
    @Test(.enabled(if: ServerProcess.binaryExists), .timeLimit(.minutes(5)))
    func aPortInUseIsSaidPlainly() async throws {
        let database = Scratch.path("terminal-port.sqlite")
        let imported = try await ServerProcess.commandInBackground([
            "catalog", "import", TestHarness.fixturePath, "--database", database,
        ])
        #expect(imported.status == 0, "\(imported.output)")
        let port = 19_000 + Int.random(in: 0..<900)
        let first = try ServerProcess(
            database: database, port: port, publicKey: String(repeating: "ab", count: 32),
            log: URL(fileURLWithPath: Scratch.path("terminal-port.log")))
        defer { first.kill(SIGTERM) }
        try await first.waitUntilReady(HTTPClient.shared)
        let second = try await ServerProcess.commandInBackground(
            ["serve", "--database", Scratch.path("terminal-port-2.sqlite"), "--port", String(port)])
        #expect(second.status == 1, "\(second.output)")
        #expect(
            second.output.contains(
                "Cannot listen on 127.0.0.1:\(port): another program (perhaps another ggtracker serve)"),
            "\(second.output)")
        #expect(!second.output.contains("errno"), "\(second.output)")
    }
}
