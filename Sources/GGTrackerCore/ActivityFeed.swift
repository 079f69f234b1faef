import Foundation

/// One line of `/activity`: a player's events about one game told together ("completed and rated Hades ★★★★☆")
/// when they follow each other closely, so that one `/rate` of an unlisted game is not three lines.
package struct ActivityLine: Hashable, Sendable {
    package var player: Player
    package var kinds: [EventKind]
    package var game: Game?
    /// The latest score among the events, when one of them is `rated`.
    package var score: Int?
    /// The challenge's name for a medal.
    package var detail: String?
    /// The newest event's moment.
    package var at: Date

    /// Events of the same player about the same game, each within `window` of the next, become one line; `added`
    /// goes unsaid beside `started` or `completed`, which mean it. Lines keep the events' order.
    package static func lines(_ events: [ActivityEvent], window: TimeInterval = 3600) -> [ActivityLine] {
        var lines: [ActivityLine] = []
        for event in events {
            // A medal names a challenge, not a game: it always has a line of its own.
            if let game = event.game, event.kind != .medal, var last = lines.last, last.player.id == event.player.id,
                last.game?.id == game.id, abs(last.earliest.timeIntervalSince(event.at)) <= window
            {
                last.add(event)
                lines[lines.count - 1] = last
            } else {
                lines.append(ActivityLine(event))
            }
        }
        return lines
    }

    /// The oldest event's moment, which the next (older) event must be close to.
    private var earliest: Date

    private init(_ event: ActivityEvent) {
        player = event.player
        kinds = []
        game = event.game
        detail = event.detail
        at = event.at
        earliest = event.at
        add(event)
    }

    private mutating func add(_ event: ActivityEvent) {
        if !kinds.contains(event.kind) { kinds.append(event.kind) }
        if event.kind == .rated, score == nil, let amount = event.amount { score = Int(amount) }
        at = max(at, event.at)
        earliest = min(earliest, event.at)
    }

    /// What happened, in the order things happen to a game: "wishlisted and added", "completed and rated",
    /// "won a medal in".
    package var verbs: String {
        var told = Self.order.filter(kinds.contains)
        if told.contains(.started) || told.contains(.completed) { told.removeAll { $0 == .added } }
        if told.contains(.completed) { told.removeAll { $0 == .started } }
        return Format.sentence(told.map(\.verb))
    }

    /// The emoji of the most telling event.
    package var emoji: String {
        (Self.weight.first(where: kinds.contains) ?? kinds.first ?? .added).emoji
    }

    /// The order a sentence tells events in.
    private static let order: [EventKind] = [.wishlisted, .added, .started, .completed, .rated, .reviewed, .medal]
    /// Which event's emoji leads the line.
    private static let weight: [EventKind] = [.medal, .completed, .reviewed, .rated, .started, .added, .wishlisted]
}
