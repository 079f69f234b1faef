import Foundation
import GGTrackerCore

/// An interaction response as Discord expects it.
/// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object
package struct DiscordResponse: Encodable, Sendable {
    package var type: DiscordCallbackType
    package var data: DiscordResponseData?

    package static let pong = DiscordResponse(type: .pong, data: nil)
}

package enum DiscordResponseData: Encodable, Sendable {
    case message(DiscordMessage)
    case modal(DiscordModal)
    case autocomplete(choices: [DiscordChoice])

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .message(let message): try message.encode(to: encoder)
        case .modal(let modal): try modal.encode(to: encoder)
        case .autocomplete(let choices):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(choices, forKey: .choices)
        }
    }

    enum CodingKeys: String, CodingKey { case choices }
}

package struct DiscordChoice: Codable, Sendable, Equatable {
    package var name: String
    package var value: String
}

/// A message body: used by interaction responses, follow-up edits and channel messages alike.
package struct DiscordMessage: Encodable, Sendable {
    package var content: String?
    package var embeds: [Embed]?
    package var components: [DiscordComponent]?
    package var flags: Int?
    package var allowedMentions = AllowedMentions()

    enum CodingKeys: String, CodingKey {
        case content, embeds, components, flags
        case allowedMentions = "allowed_mentions"
    }

    /// Mentions in user text never ping anyone; only the users listed, when any, are pinged.
    package struct AllowedMentions: Encodable, Sendable {
        package var parse: [String] = []
        package var users: [String]?
    }

    package struct Embed: Encodable, Sendable {
        package var title: String?
        package var url: String?
        package var description: String?
        package var color: Int?
        package var thumbnail: Media?
        package var image: Media?
        package var fields: [Field]?
        package var footer: Footer?

        package struct Media: Encodable, Sendable { package var url: String }
        package struct Footer: Encodable, Sendable { package var text: String }
        package struct Field: Encodable, Sendable {
            package var name: String
            package var value: String
            package var inline: Bool
        }

        /// Characters that count towards Discord's 6000 per message, in code points as Discord counts them.
        var countedLength: Int {
            Format.length(title ?? "") + Format.length(description ?? "") + Format.length(footer?.text ?? "")
                + (fields ?? []).reduce(0) { $0 + Format.length($1.name) + Format.length($1.value) }
        }
    }
}

/// A message component or modal component; only the fields of its type are set.
package struct DiscordComponent: Encodable, Sendable {
    package var type: DiscordComponentType
    package var style: Int?
    package var label: String?
    package var customID: String?
    package var disabled: Bool?
    package var placeholder: String?
    package var options: [SelectOption]?
    package var components: [DiscordComponent]?
    package var component: Indirect?
    package var maxLength: Int?
    package var required: Bool?
    package var value: String?

    enum CodingKeys: String, CodingKey {
        case type, style, label, disabled, placeholder, options, components, component, required, value
        case customID = "custom_id"
        case maxLength = "max_length"
    }

    package struct SelectOption: Encodable, Sendable {
        package var label: String
        package var value: String
        package var description: String?
    }

    package final class Indirect: Encodable, Sendable {
        let value: DiscordComponent
        init(_ value: DiscordComponent) { self.value = value }
        package func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }
}

package struct DiscordModal: Encodable, Sendable {
    package var customID: String
    package var title: String
    package var components: [DiscordComponent]

    enum CodingKeys: String, CodingKey {
        case title, components
        case customID = "custom_id"
    }
}

/// Discord's documented limits.
package enum DiscordLimits {
    package static let content = 2000
    package static let embeds = 10
    package static let embedTitle = 256
    package static let embedDescription = 4096
    package static let fields = 25
    package static let fieldName = 256
    package static let fieldValue = 1024
    package static let footer = 2048
    package static let embedTotal = 6000
    package static let customID = 100
    package static let buttonLabel = 80
    package static let rows = 5
    package static let perRow = 5
    package static let selectOptions = 25
    package static let choices = 25
    package static let modalTitle = 45
}

extension Reply {
    /// Renders for Discord. `customID` turns a command line into a component custom id (at most 100 characters).
    package func discordResponse(isComponent: Bool, customID: (String) -> String) -> DiscordResponse {
        if let modal {
            let inputs = modal.inputs.prefix(5).map { input in
                DiscordComponent(
                    type: .label, label: Format.truncate(input.label, 45),
                    component: .init(
                        DiscordComponent(
                            type: .textInput, style: input.paragraph ? 2 : 1, customID: input.option,
                            placeholder: input.placeholder.map { Format.truncate($0, 100) },
                            maxLength: min(input.maxLength, 4000), required: true,
                            value: input.value.map { Format.truncate($0, 4000) })))
            }
            return DiscordResponse(
                type: .modal,
                data: .modal(
                    DiscordModal(
                        customID: customID(modal.command),
                        title: Format.truncate(modal.title, DiscordLimits.modalTitle),
                        components: Array(inputs))))
        }
        let update = delivery == .updateMessage && isComponent
        var message = discordMessage(customID: customID)
        if update { message.flags = nil }
        return DiscordResponse(type: update ? .updateMessage : .channelMessage, data: .message(message))
    }

    /// The message body within Discord's limits.
    package func discordMessage(customID: (String) -> String) -> DiscordMessage {
        var embeds = cards.prefix(DiscordLimits.embeds).map { card in
            DiscordMessage.Embed(
                // Titles are plain text in a reply; Discord renders markdown in them, so it is escaped here.
                title: card.title.map { Format.truncate(DiscordMarkdown.escape($0), DiscordLimits.embedTitle) },
                url: card.url.flatMap { $0.count <= 2048 && URL(string: $0) != nil ? $0 : nil },
                description: card.description.map { $0.discordMarkdown(within: DiscordLimits.embedDescription) },
                color: card.color,
                thumbnail: card.thumbnailURL.map { .init(url: $0) },
                image: card.imageURL.map { .init(url: $0) },
                fields: card.fields.isEmpty
                    ? nil
                    : card.fields.prefix(DiscordLimits.fields).map {
                        .init(
                            name: Format.truncate($0.name.isEmpty ? "\u{200B}" : $0.name, DiscordLimits.fieldName),
                            value: $0.value.isEmpty
                                ? "\u{200B}" : $0.value.discordMarkdown(within: DiscordLimits.fieldValue),
                            inline: $0.inline)
                    },
                footer: card.footer.map { .init(text: Format.truncate($0, DiscordLimits.footer)) })
        }
        Self.fitTotal(&embeds, cards: cards)
        var rows: [DiscordComponent] = []
        for (index, menu) in menus.enumerated() where !menu.options.isEmpty {
            rows.append(
                DiscordComponent(
                    type: .actionRow,
                    components: [
                        DiscordComponent(
                            type: .stringSelect, customID: "gm:\(index)",
                            placeholder: Format.truncate(menu.placeholder, 150),
                            options: menu.options.prefix(DiscordLimits.selectOptions).map {
                                .init(
                                    label: Format.truncate($0.label, 100), value: customID($0.command),
                                    description: $0.description.map { Format.truncate($0, 100) })
                            })
                    ]))
        }
        var usedIDs = Set<String>()
        for row in actions where !row.isEmpty {
            let buttons = row.prefix(DiscordLimits.perRow).compactMap { action -> DiscordComponent? in
                let id = customID(action.command)
                guard usedIDs.insert(id).inserted else { return nil }  // custom ids must be unique in a message
                let style =
                    switch action.style {
                    case .primary: 1
                    case .secondary: 2
                    case .success: 3
                    case .danger: 4
                    }
                return DiscordComponent(
                    type: .button, style: style, label: Format.truncate(action.label, DiscordLimits.buttonLabel),
                    customID: id,
                    disabled: action.disabled ? true : nil)
            }
            if !buttons.isEmpty { rows.append(DiscordComponent(type: .actionRow, components: buttons)) }
        }
        var content = text.map { $0.discordMarkdown(within: DiscordLimits.content) }
        if content == nil && embeds.isEmpty { content = "Done." }
        return DiscordMessage(
            content: content, embeds: embeds.isEmpty ? nil : embeds,
            components: rows.isEmpty ? nil : Array(rows.prefix(DiscordLimits.rows)),
            flags: visibility == .invokerOnly ? 64 : nil)
    }

    /// Shortens the longest texts until all embeds together fit Discord's 6000 characters, each written again from
    /// its card's words so that its markup stays whole.
    /// `embeds` are the first of `cards`, in order.
    static func fitTotal(_ embeds: inout [DiscordMessage.Embed], cards: [Card]) {
        var total = embeds.reduce(0) { $0 + $1.countedLength }
        while total > DiscordLimits.embedTotal {
            let excess = total - DiscordLimits.embedTotal
            // Find the longest description or field value and cut it.
            var best: (embed: Int, field: Int?, length: Int) = (0, nil, -1)
            for (e, embed) in embeds.enumerated() {
                if let d = embed.description, Format.length(d) > best.length { best = (e, nil, Format.length(d)) }
                for (f, field) in (embed.fields ?? []).enumerated() where Format.length(field.value) > best.length {
                    best = (e, f, Format.length(field.value))
                }
            }
            guard best.length > 1 else { break }
            let newLength = max(1, best.length - excess)
            if let f = best.field {
                embeds[best.embed].fields![f].value = cards[best.embed].fields[f].value.discordMarkdown(
                    within: newLength)
            } else {
                embeds[best.embed].description = cards[best.embed].description!.discordMarkdown(within: newLength)
            }
            total = embeds.reduce(0) { $0 + $1.countedLength }
        }
    }
}
