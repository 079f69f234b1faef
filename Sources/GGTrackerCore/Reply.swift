import Foundation

/// The platform-neutral answer to a command, rendered once per platform.
package struct Reply: Equatable, Sendable {
    /// Who sees it: the channel, or only the person who asked (Discord's ephemeral).
    package enum Visibility: Equatable, Sendable {
        case channel, invokerOnly
    }

    /// Whether it is a new message or replaces the message whose button was pressed (paging).
    package enum Delivery: Equatable, Sendable {
        case newMessage, updateMessage
    }

    package var visibility: Visibility
    package var delivery: Delivery = .newMessage
    package var text: RichText?
    package var cards: [Card] = []
    /// Rows of buttons; each row holds at most five.
    package var actions: [[Action]] = []
    /// Drop-down menus; choosing an option runs its command.
    package var menus: [Menu] = []
    /// A form to open instead of a message (Discord modal).
    package var modal: Modal? = nil
    /// Posted to the server's announce channel as well, after the reply (completions, reviews, medals); from a
    /// direct message with the bot, to those of the player's servers.
    package var announcements: [Announcement] = []
    /// Later versions of this reply (progress of a long task); platforms that can edit a message apply them.
    package var updates: ReplyUpdates? = nil
    /// A private reply whose words are a secret of the asker's (a one-download link): a platform whose private
    /// answers the whole room sees (Matrix) sends it to them in a direct message instead.
    package var isSecret = false

    package init(
        visibility: Visibility = .channel, delivery: Delivery = .newMessage, text: RichText? = nil, cards: [Card] = [],
        actions: [[Action]] = [], menus: [Menu] = [], modal: Modal? = nil
    ) {
        self.menus = menus
        self.visibility = visibility
        self.delivery = delivery
        self.text = text
        self.cards = cards
        self.actions = actions
        self.modal = modal
    }

    /// A private error or notice for the person who asked.
    package static func notice(_ text: RichText) -> Reply {
        Reply(visibility: .invokerOnly, text: text)
    }

    /// A private notice of plain words.
    package static func notice(_ text: String) -> Reply { notice(RichText(stringLiteral: text)) }
}

/// A stream of replacements for a reply, compared by identity.
package final class ReplyUpdates: Equatable, Sendable {
    package let stream: AsyncStream<Reply>
    package let continuation: AsyncStream<Reply>.Continuation

    package init() {
        (stream, continuation) = AsyncStream.makeStream(of: Reply.self)
    }

    package static func == (lhs: ReplyUpdates, rhs: ReplyUpdates) -> Bool { lhs === rhs }
}

/// Cards to post in a server's announce channel.
package struct Announcement: Equatable, Sendable {
    package var channel: String
    package var text: RichText?
    package var cards: [Card]
    /// The players (their ids on the platform) the message pings; nobody else mentioned in it is pinged.
    package var pinging: [String]
    /// The community whose announce channel it goes to, where how the post went is noted for its admins.
    package var community: String?
    package init(
        channel: String, text: RichText? = nil, cards: [Card], pinging: [String] = [], community: String? = nil
    ) {
        self.channel = channel
        self.text = text
        self.cards = cards
        self.pinging = pinging
        self.community = community
    }

    /// An announcement to a server's announce channel.
    package init(to target: AnnounceTarget, text: RichText? = nil, cards: [Card]) {
        self.init(channel: target.channel, text: text, cards: cards, community: target.community)
    }
}

/// One rich card: a Discord embed, a Matrix HTML block, a Slack section.
package struct Card: Equatable, Sendable {
    package var title: String?
    package var url: String?
    package var description: RichText?
    package var thumbnailURL: String?
    package var imageURL: String?
    package var fields: [Field] = []
    package var footer: String?
    package var color: Int?

    package init(
        title: String? = nil, url: String? = nil, description: RichText? = nil, thumbnailURL: String? = nil,
        imageURL: String? = nil, fields: [Field] = [], footer: String? = nil, color: Int? = nil
    ) {
        self.title = title
        self.url = url
        self.description = description
        self.thumbnailURL = thumbnailURL
        self.imageURL = imageURL
        self.fields = fields
        self.footer = footer
        self.color = color
    }

    package struct Field: Equatable, Sendable {
        package var name: String
        package var value: RichText
        package var inline: Bool
        package init(_ name: String, _ value: RichText, inline: Bool = true) {
            self.name = name
            self.value = value
            self.inline = inline
        }

        /// A field of plain words.
        package init(_ name: String, _ value: String, inline: Bool = true) {
            self.init(name, RichText(stringLiteral: value), inline: inline)
        }
    }
}

/// A button. Pressing it runs its command, one of the declared commands with its options.
package struct Action: Equatable, Sendable {
    package enum Style: Equatable, Sendable {
        case primary, secondary, success, danger
    }
    package var label: String
    package let invocation: CommandInvocation
    package var style: Style
    package var disabled: Bool
    /// The command line it runs, as a platform carries it (a custom id, a button value, a hint to type); written
    /// once, since renderers read it more than once.
    package let command: String

    package init(_ label: String, _ invocation: CommandInvocation, style: Style = .secondary, disabled: Bool = false) {
        self.label = label
        self.invocation = invocation
        self.style = style
        self.disabled = disabled
        command = invocation.commandLine
    }
}

/// A drop-down of choices, each running its own command line.
package struct Menu: Equatable, Sendable {
    package var placeholder: String
    package var options: [Option]

    package struct Option: Equatable, Sendable {
        package var label: String
        package var description: String?
        package let invocation: CommandInvocation
        /// The command line the option runs, written once.
        package let command: String
        package init(_ label: String, description: String? = nil, _ invocation: CommandInvocation) {
            self.label = label
            self.description = description
            self.invocation = invocation
            command = invocation.commandLine
        }
    }

    package init(_ placeholder: String, options: [Option]) {
        self.placeholder = placeholder
        self.options = options
    }
}

/// A form with text inputs. Submitting it runs its command with each input as an option of the same name.
package struct Modal: Equatable, Sendable {
    package var title: String
    package var invocation: CommandInvocation
    package var inputs: [Input]

    package var command: String { invocation.commandLine }

    package struct Input: Equatable, Sendable {
        package var option: String
        package var label: String
        package var paragraph: Bool
        package var maxLength: Int
        package var value: String?
        package var placeholder: String?

        package init(
            option: String, label: String, paragraph: Bool, maxLength: Int, value: String?, placeholder: String?
        ) {
            self.option = option
            self.label = label
            self.paragraph = paragraph
            self.maxLength = maxLength
            self.value = value
            self.placeholder = placeholder
        }
    }

    package init(title: String, _ invocation: CommandInvocation, inputs: [Input]) {
        self.title = title
        self.invocation = invocation
        self.inputs = inputs
    }
}

/// Card colours: one per kind of reply, so a channel scans at a glance.
package enum Palette {
    package static let catalog = 0x5865F2
    package static let library = 0x57F287
    package static let wishlist = 0xFEE75C
    package static let profile = 0xEB459E
    package static let admin = 0x99AAB5
    package static let warning = 0xED4245
}

/// Formatting helpers shared by the features.
package enum Format {
    /// A score 1–10 as five stars with halves: 7 → ★★★½☆.
    package static func stars(_ score: Int) -> String {
        let clamped = min(max(score, 0), 10)
        let full = clamped / 2
        let half = clamped % 2
        return String(repeating: "★", count: full) + (half == 1 ? "½" : "")
            + String(repeating: "☆", count: 5 - full - half)
    }

    package static func hours(_ hours: Double) -> String { decimal(hours) + " h" }

    /// A copy's hours as a line shows them: none where none or no time at all is logged ("0 h" says nothing, as a
    /// percent of 0 does).
    package static func played(_ hours: Double?) -> String? {
        guard let hours, hours > 0 else { return nil }
        return Format.hours(hours)
    }

    /// "2,000", "12.5": whole numbers as they are, others to one decimal (half away from zero), thousands set apart.
    package static func decimal(_ value: Double) -> String {
        if value == value.rounded() { return number(Int(value)) }
        let tenths = Int((abs(value) * 10).rounded())
        return "\(value < 0 ? "-" : "")\(number(tenths / 10)).\(tenths % 10)"
    }

    /// "about 12 h to beat (rushed 8 h, everything 30 h)": hours to the nearest half; nil when nothing is known.
    package static func timeToBeat(_ time: TimeToBeat) -> String? {
        func hours(_ seconds: Int) -> String { Self.hours(max(0.5, (Double(seconds) / 1800).rounded() / 2)) }
        var others: [String] = []
        if let rushed = time.hastily { others.append("rushed \(hours(rushed))") }
        if let everything = time.completely { others.append("everything \(hours(everything))") }
        guard let normally = time.normally else { return others.isEmpty ? nil : others.joined(separator: ", ") }
        return "about \(hours(normally)) to beat" + (others.isEmpty ? "" : " (\(others.joined(separator: ", ")))")
    }

    /// The months' short names, January first.
    package static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    package static func date(_ date: Date, yearOnly: Bool = false) -> String {
        let c = Calendar.utc.dateComponents([.year, .month, .day], from: date)
        if yearOnly { return "\(c.year!)" }
        return "\(monthNames[c.month! - 1]) \(c.day!), \(c.year!)"
    }

    /// A text's length as chat platforms count it (Discord's limits are in code points): one per Unicode scalar,
    /// so a letter with a hundred combining marks is a hundred and one, not one.
    package static func length(_ text: String) -> Int { text.unicodeScalars.count }

    /// At most `limit` code points, cut between whole characters and ended with "…" when anything was cut.
    package static func truncate(_ text: String, _ limit: Int) -> String {
        // No more bytes than the limit means no more code points: nothing to count.
        guard text.utf8.count > limit, length(text) > limit else { return text }
        var out = ""
        var used = 0
        for character in text {
            let size = character.unicodeScalars.count
            if used + size > limit - 1 { break }
            out.append(character)
            used += size
        }
        return out + "…"
    }

    /// "1 review", "3 reviews", "8,067 games".
    package static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number(n)) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// Names as a sentence says them: "alice", "alice and bob", "alice, bob and carol".
    package static func sentence(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// A whole number with its thousands set apart: "35,435", "-1,200", "999".
    package static func number(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        var out = n < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// A horizontal bar of `width` cells for `value` out of `total`.
    package static func bar(_ value: Int, of total: Int, width: Int = 10) -> String {
        guard total > 0 else { return String(repeating: "░", count: width) }
        let filled = Int((Double(value) / Double(total) * Double(width)).rounded())
        return String(repeating: "█", count: min(width, filled)) + String(repeating: "░", count: max(0, width - filled))
    }
}
