import Foundation

/// Text with the little formatting a reply uses — bold, code, a preformatted block, a link, a moment shown
/// relative to now, a mention of a player or a channel — and no platform's syntax: each renderer writes the spans
/// its own way (Discord markdown, Matrix HTML, Slack mrkdwn, terminal text) and escapes the plain ones.
///
/// Written like a string: `"\(bold: game.displayName) is already on your wishlist."`.
package struct RichText: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    package enum Span: Hashable, Sendable {
        case plain(String)
        case bold(String)
        /// A command, an option, a value to type.
        case code(String)
        /// Lines shown in a fixed-width block, as they are.
        case block(String)
        case link(String, url: String)
        /// A moment, shown as "in 3 days" or "2 hours ago" (live where the platform can).
        case relative(Date)
        /// A player, by their id on the platform of the reply.
        case mention(String)
        /// A channel, by its id on the platform of the reply.
        case channel(String)
        /// Words hidden until the reader chooses to see them (a review that gives a story away).
        case spoiler(String)
    }

    package private(set) var spans: [Span]

    package init(_ spans: [Span] = []) {
        self.spans = []
        for span in spans { append(span) }
    }

    package init(stringLiteral value: String) {
        self.init(value.isEmpty ? [] : [.plain(value)])
    }

    /// Plain words.
    package init(_ text: String) { self.init(stringLiteral: text) }

    package init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.text
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        var text = RichText()

        package init(literalCapacity: Int, interpolationCount: Int) {}

        package mutating func appendLiteral(_ literal: String) { text.append(.plain(literal)) }
        package mutating func appendInterpolation(_ value: String) { text.append(.plain(value)) }
        package mutating func appendInterpolation(_ value: RichText) { text += value }
        package mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            text.append(.plain(value.description))
        }
        package mutating func appendInterpolation(bold value: String) { text.append(.bold(value)) }
        package mutating func appendInterpolation(bold value: some CustomStringConvertible) {
            text.append(.bold(value.description))
        }
        package mutating func appendInterpolation(code value: String) { text.append(.code(value)) }
        package mutating func appendInterpolation(relative date: Date) { text.append(.relative(date)) }
        package mutating func appendInterpolation(mention id: String) { text.append(.mention(id)) }
        package mutating func appendInterpolation(channel id: String) { text.append(.channel(id)) }
        package mutating func appendInterpolation(spoiler value: String) { text.append(.spoiler(value)) }
        package mutating func appendInterpolation(_ label: String, link url: String) {
            text.append(.link(label, url: url))
        }
    }

    /// Lines in a fixed-width block.
    package static func block(_ lines: [String]) -> RichText { RichText([.block(lines.joined(separator: "\n"))]) }

    package var isEmpty: Bool { spans.isEmpty }

    /// Adds a span, merging neighbouring plain text.
    package mutating func append(_ span: Span) {
        switch span {
        case .plain(let text), .bold(let text), .code(let text), .block(let text), .spoiler(let text):
            if text.isEmpty { return }
        default: break
        }
        if case .plain(let more) = span, case .plain(let text)? = spans.last {
            spans[spans.count - 1] = .plain(text + more)
        } else {
            spans.append(span)
        }
    }

    package static func += (lhs: inout RichText, rhs: RichText) {
        for span in rhs.spans { lhs.append(span) }
    }

    package static func + (lhs: RichText, rhs: RichText) -> RichText {
        var sum = lhs
        sum += rhs
        return sum
    }

    /// What stands for a spoiler where it cannot be hidden behind a click: in plain text, on the terminal, in a
    /// Matrix message's plain `body` and on Slack.
    package static let spoilerHidden = "(spoiler hidden)"

    /// The text without formatting, moments as dates relative to now, spoilers left out: the terminal's
    /// rendering, and what searches of a reply's words look at.
    package var plainText: String { plainText(now: Date()) }

    package func plainText(now: Date) -> String {
        spans.map { span in
            switch span {
            case .plain(let text), .bold(let text), .code(let text), .block(let text): text
            case .link(let label, _): label
            case .relative(let date): Self.relative(date, now: now)
            case .mention(let id): "@" + id
            case .channel(let id): id
            case .spoiler: Self.spoilerHidden
            }
        }.joined()
    }

    package var description: String { plainText }

    /// Whether the text, without formatting, contains `text`.
    package func contains(_ text: some StringProtocol) -> Bool { plainText.contains(text) }

    /// The same text with every span's words passed through `transform` (escaping, truncation by the renderer).
    package func mapText(_ transform: (String) -> String) -> RichText {
        RichText(
            spans.map { span in
                switch span {
                case .plain(let text): .plain(transform(text))
                case .bold(let text): .bold(transform(text))
                case .code(let text): .code(transform(text))
                case .block(let text): .block(transform(text))
                case .link(let label, let url): .link(transform(label), url: url)
                case .spoiler(let text): .spoiler(transform(text))
                case .relative, .mention, .channel: span
                }
            })
    }

    /// "in 3 days", "5 minutes ago": rounded to the nearest unit, so a link made to last 15 minutes says "in 15
    /// minutes" when it is given, not "in 14 minutes".
    package static func relative(_ date: Date, now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        // The smallest unit whose rounded amount stays below its limit: 59.6 seconds is "1 minute".
        let units: [(length: Double, limit: Int, name: String)] = [
            (1, 60, "second"), (60, 60, "minute"), (3600, 24, "hour"), (86_400, 60, "day"),
            (86_400 * 30, 24, "month"), (86_400 * 365, .max, "year"),
        ]
        var (n, unit) = (0, "second")
        for candidate in units {
            (n, unit) = (Int((magnitude / candidate.length).rounded()), candidate.name)
            if n < candidate.limit { break }
        }
        let amount = Format.count(n, unit)
        return seconds >= 0 ? "in \(amount)" : "\(amount) ago"
    }
}

extension Sequence where Element == RichText {
    package func joined(separator: RichText = "") -> RichText {
        var out = RichText()
        for (index, text) in enumerated() {
            if index > 0 { out += separator }
            out += text
        }
        return out
    }
}
