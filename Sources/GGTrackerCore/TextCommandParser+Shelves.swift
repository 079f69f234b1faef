/// A shelf named at the end of a typed line: "!gg add Hades to my wishlist" (or "!gg add Hades wishlist") is
/// `/wishlist add`, "!gg remove Hades from my wishlist" `/wishlist remove`, "… to my library" and "… from my library"
/// the command as it is.
extension TextCommandParser {
    /// The command (`path`, and its declaration) and the rest of the line once a shelf ending it is read; nil where
    /// none ends it.
    static func namedShelf(_ path: [String], _ rest: Substring) -> (path: [String], spec: CommandSpec, rest: Substring)?
    {
        var words = rest.split(whereSeparator: \.isWhitespace)
        guard let last = words.last?.lowercased().trimmingCharacters(in: [".", "!"]) else { return nil }
        let wishlist =
            ["wishlist", "wishlists", "wish-list"].contains(last)
            || last == "list" && words.count >= 3
                && words[words.count - 2].lowercased() == "wish"
        guard wishlist || ["library", "collection"].contains(last) else { return nil }
        words.removeLast()
        if wishlist && last == "list" { words.removeLast() }
        var owned = false
        if let owner = words.last?.lowercased(), ["my", "the"].contains(owner) {
            words.removeLast()
            owned = true
        }
        guard let joining = words.last?.lowercased(), words.count >= 2 || (!owned && path == ["add"]) else {
            return nil
        }
        var adding = ["to", "into", "on", "onto"].contains(joining)
        if adding || ["from", "off"].contains(joining) {
            words.removeLast()
        } else if !owned && wishlist && path == ["add"] {
            // "!gg add Hades II wishlist", as a status is written after the title.
            adding = true
        } else {
            return nil
        }
        guard !words.isEmpty else { return nil }
        let title = Substring(words.joined(separator: " "))
        let wishlistSpec = CommandName.wishlist.spec
        switch (path, adding, wishlist) {
        case (["add"], true, true), (["wishlist", "add"], true, true):
            return (["wishlist", "add"], wishlistSpec.subcommand("add")!, title)
        case (["remove"], false, true), (["wishlist", "remove"], false, true):
            return (["wishlist", "remove"], wishlistSpec.subcommand("remove")!, title)
        case (["add"], true, false), (["remove"], false, false):
            return (path, CommandName(rawValue: path[0])!.spec, title)
        default: return nil
        }
    }
}
