import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// The headless browser: Debian's `chromium` (CI installs it).
enum Chromium {
    static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs chromium headless on a URL with extra arguments; returns standard output. The browser is waited for
    /// on a thread of its own: blocking the tasks' threads would stall the server it is reading from.
    static func run(_ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(arguments) })
            }
        }
    }

    private static func runBlocking(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite(
    "The shared page in a real browser", .serialized,
    .enabled(if: Chromium.path != nil, "needs Debian's chromium package"))
struct SharePageBrowserTests {
    @Test(.timeLimit(.minutes(5)))
    func coverGridAndChartsRenderInChromium() async throws {
        let harness = try await TestHarness { $0.port = 0 }
        let screenshot = FileManager.default.temporaryDirectory.appendingPathComponent("ggtracker-share-page.png")
        try? FileManager.default.removeItem(at: screenshot)
        try await harness.withLiveClient { client, port in
            for (title, score) in [("Celeste", 9), ("Hades", 8), ("Hollow Knight", 10), ("Stardew Valley", 7)] {
                _ = try await client.send(I.command("rate", [I.option("title", title), I.option("score", score)]))
            }
            _ = try await client.send(
                I.command("add", [I.option("title", "Cuphead"), I.option("status", "playing"), I.option("hours", 6.5)]))
            _ = try await client.send(
                I.command(
                    "review", [I.option("title", "Celeste"), I.option("text", "<b>Not bold</b> — kind and hard.")]))
            _ = try await client.send(
                I.command("note", [I.option("title", "Cuphead"), I.option("text", "Parry the pink things")]))
            let share = try await client.send(I.command("share"))
            let path = try #require(
                share.content.range(of: "/u/").map { String(share.content[$0.lowerBound...].prefix(35)) })
            let url = "http://127.0.0.1:\(port)\(path)"

            let dom = try await Chromium.run(["--virtual-time-budget=2000", "--dump-dom", url])
            #expect(dom.components(separatedBy: "<article class=\"cover\"").count - 1 == 5)
            #expect(
                dom.contains("<section class=\"shelf\" id=\"completed\"")
                    && dom.contains("<section class=\"shelf\" id=\"playing\""))
            for chart in ["chart-status", "chart-genres", "chart-scores", "chart-hours"] {
                #expect(dom.contains("id=\"\(chart)\""), "\(chart) missing")
            }
            #expect(dom.components(separatedBy: "<rect").count - 1 >= 5 + 10 + 12)
            #expect(dom.contains("&lt;b&gt;Not bold&lt;/b&gt;") && !dom.contains("<b>Not bold</b>"))
            #expect(dom.contains("Parry the pink things"), "notes are on the page")
            // Every cover sits on a placeholder with the game's initial, shown when the image cannot load (here,
            // with no network, none can); the image carries no alt text to squeeze into the frame.
            #expect(dom.components(separatedBy: "<div class=\"art\"><span aria-hidden=\"true\">").count - 1 == 5)
            #expect(!dom.contains("alt=\"Celeste\""))
            // Chart labels are whole words: a long genre is shortened with an ellipsis, its full name a tooltip.
            #expect(!dom.contains(">Role-playing (RP<"))
            if dom.contains("Role-playing") {
                #expect(dom.contains("<title>Role-playing (RPG)</title>") || dom.contains(">Role-playing (RPG)<"))
            }

            _ = try await Chromium.run(["--window-size=412,1400", "--screenshot=\(screenshot.path)", url])
        }
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "a real screenshot was taken")
    }
}

extension SharePageBrowserTests {
    @Test(.timeLimit(.minutes(5)))
    func theYearInReviewRendersInChromium() async throws {
        let harness = try await TestHarness { $0.port = 0 }
        let screenshot = URL(fileURLWithPath: Scratch.path("recap-page.png"))
        try await harness.withLiveClient { client, port in
            for (title, hours) in [("Celeste", 14.5), ("Hades", 40.0), ("Hollow Knight", 31.0)] {
                _ = try await client.send(
                    I.command(
                        "add", [I.option("title", title), I.option("status", "completed"), I.option("hours", hours)]))
            }
            _ = try await client.send(I.command("rate", [I.option("title", "Hades"), I.option("score", 10)]))
            let share = try await client.send(I.command("share"))
            let path = try #require(
                share.content.range(of: "/u/").map { String(share.content[$0.lowerBound...].prefix(35)) })
            let year = Calendar.utcYear(of: Date())
            let url = "http://127.0.0.1:\(port)\(path)/recap/\(year)"

            let dom = try await Chromium.run(["--virtual-time-budget=2000", "--dump-dom", url])
            #expect(dom.contains("<h1>Alice's \(year) in games</h1>"), "\(dom.prefix(600))")
            #expect(dom.contains("3 games finished · 85.5 h played · 0 reviews"))
            for chart in ["chart-months", "chart-game-hours", "chart-genres"] {
                #expect(dom.contains("id=\"\(chart)\""), "\(chart) missing")
            }
            // Twelve months, three games' hours, and at least one genre, each a bar.
            #expect(dom.components(separatedBy: "<rect").count - 1 >= 12 + 3 + 1)
            #expect(dom.components(separatedBy: "<article class=\"cover\"").count - 1 == 3)
            #expect(dom.contains("<dt>Best rated</dt><dd>Hades · ★★★★★ 10/10</dd>"))
            _ = try await Chromium.run(["--window-size=412,1400", "--screenshot=\(screenshot.path)", url])
        }
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "a real screenshot was taken")
    }
}
