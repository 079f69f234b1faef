/// A value that holds secrets (tokens, keys, a password in a URL). Anything may print a value it holds — a log line,
/// a service's description at start-up, `dump` — so such a value prints, debug-prints and reflects as its
/// `description` only, which leaves the secrets out.
package protocol Redacting: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension Redacting {
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
