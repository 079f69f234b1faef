import Foundation
import Logging

/// Writes each log record as one JSON object on one line of standard error (`LOG_FORMAT=json`), for log
/// collectors: `time`, `level`, `label`, `message`, then the record's metadata as fields.
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    let label: String
    private static let lock = NSLock()

    package init(label: String) {
        self.label = label
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package static func line(
        level: Logger.Level, label: String, message: String, metadata: Logger.Metadata, at date: Date
    ) -> Data {
        var fields: [String: Any] = [:]
        for (key, value) in metadata { fields[key] = Self.json(value) }
        fields["time"] = date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        fields["level"] = level.rawValue
        fields["label"] = label
        fields["message"] = message
        var data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        data.append(0x0A)
        return data
    }

    static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }

    package func log(event: LogEvent) {
        let record = Self.line(
            level: event.level, label: label, message: event.message.description,
            metadata: metadata.merging(event.metadata ?? [:]) { $1 }, at: Date())
        Self.lock.withLock { FileHandle.standardError.write(record) }
    }
}
