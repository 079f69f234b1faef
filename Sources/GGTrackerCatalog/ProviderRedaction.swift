import Foundation

/// The catalog clients hold keys; printed anywhere (a log line, `dump`), they show their endpoint only.
extension IGDBClient: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String { "IGDBClient(\(apiBase), client id \(clientID))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["apiBase": apiBase]) }
}

extension GiantBombClient: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String { "GiantBombClient(\(apiBase))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["apiBase": apiBase]) }
}
