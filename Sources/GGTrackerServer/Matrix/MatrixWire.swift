import Foundation
import GGTrackerCore

/// A transaction the homeserver pushes to `PUT /_matrix/app/v1/transactions/{txnId}`, as the application service
/// API describes it; only the fields the bot reads.
/// https://spec.matrix.org/latest/application-service-api/#put_matrixappv1transactionstxnid
package struct MatrixTransaction: Decodable, Sendable {
    /// Each event, or nil for one that lacks what every event has (`type`, `room_id`, `sender`) or holds fields
    /// of the wrong kind: it is skipped, the others are handled.
    package var events: [MatrixEvent?]

    enum CodingKeys: String, CodingKey { case events }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        events = try container.decode([Lenient<MatrixEvent>].self, forKey: .events).map(\.value)
    }

    /// A value that decodes to nil instead of failing its container.
    struct Lenient<Value: Decodable>: Decodable {
        var value: Value?
        init(from decoder: any Decoder) throws { value = try? Value(from: decoder) }
    }
}

/// A room event. https://spec.matrix.org/latest/client-server-api/#room-events
package struct MatrixEvent: Decodable, Sendable {
    package var type: String
    package var roomID: String
    package var sender: String
    package var eventID: String?
    /// Set on state events (membership: the user concerned).
    package var stateKey: String?
    package var content: Content

    /// The parts of `m.room.message` and `m.room.member` content the bot reads.
    package struct Content: Decodable, Sendable {
        package var msgtype: String?
        package var body: String?
        /// The HTML of a formatted message, where a mention "pill" links its user.
        package var formattedBody: String?
        package var membership: String?
        /// The thread the message was sent in (`m.relates_to` of `rel_type` `m.thread`): its first event's id.
        package var threadRoot: String?
        /// The message this one edits (`rel_type` `m.replace`): the fields above are then its new content
        /// (`m.new_content`), not the "* …" fallback. https://spec.matrix.org/latest/client-server-api/#event-replacements
        package var replaces: String?
        /// The message this one answers (`m.in_reply_to`; not a thread's fallback to its last message).
        package var inReplyTo: String?
        /// The commands the bot's own message offers by number (`MatrixMessage.commands`).
        package var offered: [String]?
        /// A file message's content (`m.file`): where the homeserver keeps it (`mxc://…`), its name, and its size
        /// when the sender's client gave it. With a `filename`, a `body` that differs is the file's caption.
        /// https://spec.matrix.org/latest/client-server-api/#mfile
        package var url: String?
        package var filename: String?
        package var size: Int?

        package init(
            msgtype: String? = nil, body: String? = nil, formattedBody: String? = nil, membership: String? = nil
        ) {
            self.msgtype = msgtype
            self.body = body
            self.formattedBody = formattedBody
            self.membership = membership
        }

        enum CodingKeys: String, CodingKey {
            case msgtype, body, membership
            case formattedBody = "formatted_body"
            case relatesTo = "m.relates_to"
            case newContent = "m.new_content"
            case offered = "org.ggtracker.commands"
            case url, filename, info
        }

        struct FileInfo: Decodable { var size: Int? }

        /// What an edit's message now reads.
        struct NewContent: Decodable {
            var msgtype: String?
            var body: String?
            var formattedBody: String?
            enum CodingKeys: String, CodingKey {
                case msgtype, body
                case formattedBody = "formatted_body"
            }
        }

        struct Relation: Decodable {
            var relType: String?
            var eventID: String?
            var inReplyTo: MatrixMessage.EventReference?
            var isFallingBack: Bool?
            enum CodingKeys: String, CodingKey {
                case relType = "rel_type"
                case eventID = "event_id"
                case inReplyTo = "m.in_reply_to"
                case isFallingBack = "is_falling_back"
            }
        }

        /// A field of another kind than the bot expects (a number for a body) is as good as absent.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            msgtype = try? container.decodeIfPresent(String.self, forKey: .msgtype)
            body = try? container.decodeIfPresent(String.self, forKey: .body)
            formattedBody = try? container.decodeIfPresent(String.self, forKey: .formattedBody)
            membership = try? container.decodeIfPresent(String.self, forKey: .membership)
            offered = try? container.decodeIfPresent([String].self, forKey: .offered)
            url = try? container.decodeIfPresent(String.self, forKey: .url)
            filename = try? container.decodeIfPresent(String.self, forKey: .filename)
            size = (try? container.decodeIfPresent(FileInfo.self, forKey: .info))?.size
            let relation = try? container.decodeIfPresent(Relation.self, forKey: .relatesTo)
            if relation?.isFallingBack != true { inReplyTo = relation?.inReplyTo?.eventID }
            switch relation?.relType {
            case "m.thread": threadRoot = relation?.eventID
            case "m.replace":
                guard let edited = relation?.eventID,
                    let new = try? container.decodeIfPresent(NewContent.self, forKey: .newContent)
                else { break }
                replaces = edited
                (msgtype, body, formattedBody) = (new.msgtype, new.body, new.formattedBody)
            default: break
            }
        }

        /// The users the HTML mentions with a pill (`<a href="https://matrix.to/#/@bob:example.org">Bob</a>`), as
        /// the text the plain body shows for each and the user's id; not those of a reply's quote (`<mx-reply>`).
        var pills: [(text: String, userID: String)] {
            guard var html = formattedBody else { return [] }
            if let quote = html.range(of: "</mx-reply>") { html = String(html[quote.upperBound...]) }
            var found: [(text: String, userID: String)] = []
            for part in html.components(separatedBy: "<a href=\"https://matrix.to/#/").dropFirst() {
                guard let quote = part.firstIndex(of: "\""), let open = part[quote...].firstIndex(of: ">"),
                    let close = part[open...].range(of: "</a>"),
                    let id = part[..<quote].split(separator: "?").first?.removingPercentEncoding, id.hasPrefix("@"),
                    id.contains(":")
                else { continue }
                let text = HTML.unescape(String(part[part.index(after: open)..<close.lowerBound]))
                if !text.isEmpty { found.append((text, id)) }
            }
            return found
        }
    }

    enum CodingKeys: String, CodingKey {
        case type, sender, content
        case roomID = "room_id"
        case eventID = "event_id"
        case stateKey = "state_key"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        roomID = try container.decode(String.self, forKey: .roomID)
        sender = try container.decode(String.self, forKey: .sender)
        eventID = try? container.decodeIfPresent(String.self, forKey: .eventID)
        stateKey = try? container.decodeIfPresent(String.self, forKey: .stateKey)
        content = (try? container.decodeIfPresent(Content.self, forKey: .content)) ?? Content()
    }

    /// The `!gg` command line of a text message, if it is one; a reply's quote of the message it answers (the
    /// fallback older clients put before the text, "> <@bot:server> …" lines and a blank one) is no part of it.
    /// https://spec.matrix.org/latest/client-server-api/#fallbacks-for-rich-replies
    package var commandLine: String? {
        guard var text = typedText, text.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("!gg")
        else { return nil }
        // A mention pill shows its user's display name in the body: the command names the user by id instead.
        for pill in content.pills {
            guard let shown = text.range(of: pill.text, options: .backwards), shown.lowerBound > text.startIndex
            else { continue }
            text.replaceSubrange(shown, with: pill.userID)
        }
        return text
    }

    /// The file a file message carries, as an import downloads it (`mxc://` from the homeserver).
    package var file: Attachment? {
        guard stateKey == nil, content.msgtype == "m.file", let url = content.url, url.hasPrefix("mxc://") else {
            return nil
        }
        return Attachment(url: url, filename: content.filename ?? content.body ?? "file", size: content.size ?? 0)
    }

    /// The words of a text message, after the quote of the message it answers that some clients put first; or a
    /// file's caption.
    var typedText: String? {
        if file != nil, let caption = content.body, let name = content.filename, caption != name { return caption }
        guard stateKey == nil, content.msgtype == "m.text", var text = content.body else { return nil }
        if text.hasPrefix("> <") || text.hasPrefix("> * <") {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
            while lines.first?.hasPrefix("> ") == true { lines = lines.dropFirst() }
            if lines.first?.isEmpty == true { lines = lines.dropFirst() }
            text = lines.joined(separator: "\n")
        }
        return text
    }

    /// A message that is only a number ("2", "#2" or "!gg 2"): as a reply to one of the bot's messages, it picks
    /// among the commands that message offers.
    package var choice: Int? {
        guard var text = typedText?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        if text.lowercased().hasPrefix("!gg") { text = text.dropFirst(3).trimmingCharacters(in: .whitespaces) }
        if text.hasPrefix("#") { text.removeFirst() }
        guard text.count <= 2, let number = Int(text), number > 0 else { return nil }
        return number
    }
}

/// The content of the `m.room.message` the bot sends: an `m.notice` with an HTML body, mentioning no one, in reply
/// to the command's event. https://spec.matrix.org/latest/client-server-api/#mnotice
package struct MatrixMessage: Codable, Sendable, Equatable {
    package var msgtype = "m.notice"
    package var body: String
    package var format = "org.matrix.custom.html"
    package var formattedBody: String
    /// Empty: a reply never pings anyone. https://spec.matrix.org/latest/client-server-api/#user-and-room-mentions
    package var mentions = Mentions()
    package var relatesTo: Relation?
    /// The commands its numbered hints offer, in order, as typed after `!gg`: a reply with a number runs one.
    package var commands: [String]?
    /// Set on an answer kept for its sender alone (`Reply.isSecret`): it goes to their direct-message room, and the
    /// command's room hears only where it went. Never sent.
    package var direct: Bool?

    /// Who the message pings: no one, but the users a release alert names.
    package struct Mentions: Codable, Sendable, Equatable {
        package var userIDs: [String]?
        enum CodingKeys: String, CodingKey { case userIDs = "user_ids" }
    }

    package struct Relation: Codable, Sendable, Equatable {
        package var inReplyTo: EventReference
        /// `m.thread` for an answer in the thread its command was sent in, with the thread's first event.
        /// https://spec.matrix.org/latest/client-server-api/#threading
        package var relType: String?
        package var threadRoot: String?
        package var isFallingBack: Bool?

        enum CodingKeys: String, CodingKey {
            case inReplyTo = "m.in_reply_to"
            case relType = "rel_type"
            case threadRoot = "event_id"
            case isFallingBack = "is_falling_back"
        }
    }

    package struct EventReference: Codable, Sendable, Equatable {
        package var eventID: String

        enum CodingKeys: String, CodingKey { case eventID = "event_id" }
    }

    enum CodingKeys: String, CodingKey {
        case msgtype, body, format
        case formattedBody = "formatted_body"
        case mentions = "m.mentions"
        case relatesTo = "m.relates_to"
        case commands = "org.ggtracker.commands"
        case direct = "org.ggtracker.direct"
    }
}

/// A Matrix error answer: `{"errcode": "M_FORBIDDEN", "error": "…"}`.
struct MatrixError: Encodable {
    var errcode: String
    var error: String
}

/// The room's `m.room.power_levels` state, as far as a user's level goes.
struct MatrixPowerLevels: Decodable {
    var users: [String: Int]?
    var usersDefault: Int?

    enum CodingKeys: String, CodingKey {
        case users
        case usersDefault = "users_default"
    }
}

/// `POST /_matrix/client/v3/createRoom` for a direct-message room with one user, and its answer.
/// https://spec.matrix.org/latest/client-server-api/#post_matrixclientv3createroom
struct MatrixDirectRoom: Encodable {
    var invite: [String]
    var isDirect = true
    var preset = "trusted_private_chat"
    var name = "GGTracker"

    enum CodingKeys: String, CodingKey {
        case invite, preset, name
        case isDirect = "is_direct"
    }

    struct Created: Decodable {
        var roomID: String
        enum CodingKeys: String, CodingKey { case roomID = "room_id" }
    }
}

/// `GET /_matrix/client/v3/account/whoami`'s answer: the user the token acts as.
struct MatrixWhoAmI: Decodable {
    var userID: String
    enum CodingKeys: String, CodingKey { case userID = "user_id" }
}

/// A member's `m.room.member` state: whether they are in (or invited to) the room.
struct MatrixMembership: Decodable {
    var membership: String?
}
