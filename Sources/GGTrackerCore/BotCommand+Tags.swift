import Foundation

/// Tags as commands give them: `/tag`'s changes and the tag `/list` keeps to, both as tags are stored (lower-case).
extension BotCommand {
    /// The tag `/list` keeps to, as tags are stored: "#Co-op" is co-op.
    static func listedTag(_ text: String?) -> String? {
        guard var tag = text?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() else { return nil }
        if tag.hasPrefix("#") { tag = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces) }
        return tag.isEmpty ? nil : tag
    }

    /// A tag without a leading `+` (adding) or `#` (as `/list` takes it). Tags stored before these were read away
    /// lose theirs when the game's tags next change.
    static func bareTag(_ tag: String) -> String {
        var tag = tag
        if tag.hasPrefix("+") { tag = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces) }
        if tag.hasPrefix("#") { tag = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces) }
        return tag
    }

    /// A game's tags, each bare (`bareTag`), once.
    static func bareTags(_ tags: [String]) -> [String] {
        var bare: [String] = []
        for tag in tags.map(bareTag) where !tag.isEmpty && !bare.contains(tag) { bare.append(tag) }
        return bare
    }

    /// `roguelike, Couch co-op, -old, +new` → add roguelike, add couch co-op, remove old, add new. A tag is named
    /// without the `#` that `/list` takes before it: `#co-op` is co-op, and each word written with it is a tag of its
    /// own (`#roguelike #co-op`, `-#old`).
    static func tagChanges(_ text: String, usage: String) throws(UsageError) -> [TagChange] {
        var changes: [TagChange] = []
        for piece in text.split(separator: ",").flatMap(hashtags) {
            var tag = piece.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            let removing = tag.hasPrefix("-")
            if removing { tag = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces) }
            tag = bareTag(tag)
            guard !tag.isEmpty else { continue }
            guard Format.length(tag) <= maxTagLength else {
                throw UsageError(
                    "Tags are 1–\(maxTagLength) characters; “\(Format.truncate(tag, 40))” has \(Format.length(tag)).",
                    usage: usage)
            }
            changes.append(removing ? .remove(tag) : .add(tag))
        }
        guard !changes.isEmpty else {
            throw UsageError(
                "Give tags separated by commas, for example \(code: "tags:roguelike, couch").", usage: usage)
        }
        return changes
    }

    /// A piece of a tag list split before each word written with "#" ("#roguelike #co-op", "roguelike -#old").
    private static func hashtags(_ piece: Substring) -> [String] {
        var tags: [String] = []
        for word in piece.split(whereSeparator: \.isWhitespace) {
            if word.hasPrefix("#") || word.hasPrefix("-#") || tags.isEmpty {
                tags.append(String(word))
            } else {
                tags[tags.count - 1] += " " + word
            }
        }
        return tags
    }
}
