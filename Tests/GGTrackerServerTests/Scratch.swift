import Foundation

/// Files the tests make (databases, config files) live in one folder of this run, removed when the test process
/// exits, so runs leave nothing behind in the system's temporary folder.
enum Scratch {
    static let directory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ggtracker-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.directory) }
        return directory
    }()

    /// A new path in the folder: `name` with a unique id before its extension (`rw.sqlite` → `rw-…-id.sqlite`).
    static func path(_ name: String) -> String {
        let url = URL(fileURLWithPath: name)
        let stem = url.deletingPathExtension().lastPathComponent
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        return directory.appendingPathComponent("\(stem)-\(UUID().uuidString)\(suffix)").path
    }
}
