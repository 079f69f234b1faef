import Foundation
import Testing

@testable import GGTrackerCore

@Suite("A reply without any platform's syntax")
struct NeutralReplyTests {
    /// Every string literal of the Core sources, comments left out.
    static func coreLiterals() throws -> [(file: String, line: Int, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/GGTrackerCore")
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 10, "the Core sources were not found at \(root.path)")
        var literals: [(String, Int, String)] = []
        for file in files {
            for (number, line) in try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false
            ).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                // The pieces between double quotes on the line (a multi-line literal's lines count whole).
                let pieces = code.split(separator: "\"", omittingEmptySubsequences: false)
                let inside =
                    pieces.count > 1
                    ? stride(from: 1, to: pieces.count, by: 2).map { String(pieces[$0]) } : [code]
                for text in inside { literals.append((file.lastPathComponent, number + 1, text)) }
            }
        }
        return literals
    }

    @Test func coreWritesNoMarkdownMentionsOrTimestamps() throws {
        let markup = ["**", "<t:", "<@", "<#", "`", "```"]
        let found = try Self.coreLiterals().filter { literal in markup.contains { literal.text.contains($0) } }
        #expect(found.isEmpty, "platform syntax in Core: \(found.map { "\($0.file):\($0.line) \($0.text)" })")
    }

    @Test func spansAreBuiltFromInterpolationsAndMergePlainText() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let text: RichText = "Saved \(bold: "Hades") — try \(code: "/list") \(relative: date) for \(mention: "42")."
        #expect(
            text.spans == [
                .plain("Saved "), .bold("Hades"), .plain(" — try "), .code("/list"), .plain(" "), .relative(date),
                .plain(" for "), .mention("42"), .plain("."),
            ])
        #expect(
            text.plainText(now: date.addingTimeInterval(-3 * 86_400)) == "Saved Hades — try /list in 3 days for @42.")
        let joined = [RichText("a"), "\(bold: "b")", RichText("c")].joined(separator: ", ")
        #expect(joined.spans == [.plain("a, "), .bold("b"), .plain(", c")])
    }

    @Test func relativeMomentsRoundToTheNearestUnit() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        func said(_ seconds: TimeInterval) -> String { RichText.relative(now.addingTimeInterval(seconds), now: now) }
        // A link made to last 15 minutes, read a moment later; a game night of 12 hours just posted.
        #expect(said(15 * 60 - 0.3) == "in 15 minutes")
        #expect(said(12 * 3600 - 2) == "in 12 hours")
        #expect(said(59.4) == "in 59 seconds")
        #expect(said(59.6) == "in 1 minute")
        #expect(said(-90) == "2 minutes ago")
        #expect(said(-(23 * 3600 + 40 * 60)) == "1 day ago")
        #expect(said(30 * 86_400) == "in 30 days")
        #expect(said(400 * 86_400) == "in 13 months")
        #expect(said(-800 * 86_400) == "2 years ago")
    }

    @Test func aButtonsCommandLineReadsBackTheSameUserAndChannel() throws {
        let invocation = CommandInvocation(path: ["list"], options: ["user": .user(UserMention(id: "123456"))])
        #expect(invocation.commandLine == "/list user:@123456")
        let parsed = try TextCommandParser.parse(invocation.commandLine)
        #expect(parsed.options["user"] == .user(UserMention(id: "123456")))
        let matrix = CommandInvocation(path: ["list"], options: ["user": .user(UserMention(id: "@ada:example.org"))])
        #expect(
            try TextCommandParser.parse(matrix.commandLine).options["user"]
                == .user(UserMention(id: "@ada:example.org")))
    }
}
