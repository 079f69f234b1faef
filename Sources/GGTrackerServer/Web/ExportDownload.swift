import Foundation
import GGTrackerCore
import GGTrackerStorage
import HTTPTypes
import Hummingbird

/// `GET /export/{token}.{csv,json}`: the one download an `/export` link allows.
enum ExportDownload {
    static func response(file: String, userAgent: String?, database: AppDatabase, now: Date) async throws -> Response {
        let parts = file.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, SharedLibraryPage.isToken(parts[0]),
            let format = LibraryExport.Format(rawValue: parts[1])
        else { return plain(.notFound, "No such export.") }
        // Chat platforms fetch a posted link to preview it: that must not spend the one download.
        if let agent = userAgent?.lowercased(),
            ["bot", "facebookexternalhit", "embedly"].contains(where: agent.contains)
        {
            return plain(.forbidden, "This link is for its owner's browser.")
        }
        guard let player = try await database.social.useExportLink(parts[0], format: format, at: now),
            let export = try await database.library.export(of: player, at: now)
        else {
            return plain(
                .notFound,
                "This export link was used already, has expired, or never existed. Ask for a new one with /export.")
        }
        let day = LibraryExport.moment(now).prefix(10)
        return Response(
            status: .ok,
            headers: [
                .contentType: format.contentType, .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"ggtracker-export-\(day).\(format.rawValue)\"",
                HTTPField.Name("X-Robots-Tag")!: "noindex",
            ],
            body: .init(byteBuffer: ByteBuffer(data: try export.data(format))))
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
