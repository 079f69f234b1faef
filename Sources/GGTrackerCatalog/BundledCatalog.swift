import Foundation

/// The catalog file shipped with the binary: where it is, which file it is, and where its data comes from.
package enum BundledCatalog {
    /// The bundled catalog file shipped with the binary.
    package static var path: String? {
        Bundle.module.path(forResource: "catalog.jsonl", ofType: "gz")
    }

    /// The bundled file's identity: its gzip trailer (CRC-32 and length of the data) and its size.
    static func fingerprint(ofFileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 8 else { return nil }
        try? handle.seek(toOffset: size - 8)
        guard let trailer = try? handle.readToEnd() else { return nil }
        return trailer.map { String(format: "%02x", $0) }.joined() + "-\(size)"
    }

    package static let attribution =
        "Game data from IGDB.com. Critic scores with their review counts and ESRB ratings from Metacritic listings "
        + "(the “Video Game Sales with Ratings” and “Metacritic All Time Games Stats” data sets) and ESRB's own "
        + "listings; extra titles from IGN review listings and the “Steam Store Games” data set."
}
