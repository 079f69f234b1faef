import Foundation

extension CatalogFeatures {
    /// `/browse genre` without a name: the catalog's most common genres (platforms, modes, engines), each a button
    /// for the first five.
    func facetList(_ kind: FacetKind, _ c: Context) async throws -> Reply {
        let names = try await bot.catalog.facetNames(kind, matching: "", limit: 25)
        guard !names.isEmpty else { throw ReplyError.notice(Self.noData(kind)) }
        let buttons = names.prefix(5).map { name in
            Action(Format.truncate(name, 80), bot.rerun(c, ["name": .string(name)]))
        }
        return Reply(
            visibility: .invokerOnly,
            cards: [
                Card(
                    title: "The catalog's \(kind.rawValue)s, the most common first",
                    description: RichText(names.map { "• \($0)" }.joined(separator: "\n")),
                    footer: "/browse \(kind.rawValue) name:<\(kind.rawValue)> lists its games", color: Palette.catalog)
            ],
            actions: [Array(buttons)])
    }

    /// The platform or genre the last one or two words of a search name, when the filter has none of that kind
    /// and words are left before them: "zelda switch" → ("zelda", platform, "Nintendo Switch"). Only a name that
    /// fits one facet alone, as typed (a typo there is more likely part of a game's name).
    func trailingFacet(_ query: String, _ filter: CatalogFilter) async throws -> (String, FacetKind, String)? {
        let words = query.split(whereSeparator: \.isWhitespace)
        for kind in [FacetKind.platform, .genre] where (kind == .platform ? filter.platform : filter.genre) == nil {
            for count in [2, 1] where words.count > count {
                let typed = words.suffix(count).joined(separator: " ")
                guard typed.filter(\.isLetter).count >= 2,
                    case .found(let name) = try await bot.catalog.facetName(kind, for: typed, typos: false)
                else { continue }
                // "zelda on switch": the word joining them is neither's.
                var rest = words.dropLast(count)
                if rest.count >= 2, Self.beforeAFacet.contains(rest.last!.lowercased()) { rest.removeLast() }
                return (rest.joined(separator: " "), kind, name)
            }
        }
        return nil
    }

    /// Words that join a name and the platform or genre after it: "zelda on switch", "rpgs for ps4".
    static let beforeAFacet: Set<String> = ["on", "for", "in"]

    /// `typed` without the words "game" and "games", any joining word left first ("games on switch" → "switch")
    /// and words left last that come before a year the line ended with ("games of 2020", "released in 2019"); nil
    /// where it has none of them.
    static func withoutGameWords(_ typed: String) -> String? {
        let words = typed.split(whereSeparator: \.isWhitespace)
        var plain = words.filter { !["game", "games"].contains($0.lowercased()) }
        while let first = plain.first, beforeAFacet.contains(first.lowercased()) { plain.removeFirst() }
        while let last = plain.last, ["of", "from", "in", "released"].contains(last.lowercased()) { plain.removeLast() }
        return plain.count < words.count ? plain.joined(separator: " ") : nil
    }

    /// Whether the command has an option for this kind of facet (`/top`'s `platform`), not given.
    private func takesFacet(_ kind: FacetKind, _ c: Context) -> Bool {
        c.invocation.options[kind.rawValue] == nil && c.invocation.leafSpec?.option(kind.rawValue) != nil
    }

    static func noData(_ kind: FacetKind) -> String {
        "This catalog has no \(kind.rawValue) data, so games cannot be found by \(kind.rawValue): the bundled offline catalog and Giant Bomb do not provide it; with IGDB as the catalog provider they do."
    }

    /// The catalog's name for a genre, platform, mode or engine typed in option `option`, if one was.
    func facet(_ kind: FacetKind, _ typed: String?, option: String, _ c: Context) async throws -> String? {
        guard let typed else { return nil }
        return try await facet(kind, named: typed, option: option, c)
    }

    /// The catalog's name for a genre, platform, mode or engine typed in option `option` ("rpg" → "Role-playing
    /// (RPG)"). When several fit, the reply asks which one with a button for each; when none does, it says so with
    /// the closest names. Either way the command stops there, changing nothing.
    func facet(_ kind: FacetKind, named typed: String, option: String, _ c: Context) async throws -> String {
        let names = try await bot.catalog.facetNames(kind)
        var typed = typed
        // Typed, "games" says nothing of a genre or platform ("!gg top games", "!gg top switch games", "!gg top
        // games on switch"): read without it, unless only the words with it name one.
        let typedHere = c.invoker.platform != .discord && c.rereadsTheTitle
        if typedHere, let plain = Self.withoutGameWords(typed) {
            if plain.isEmpty { throw TitleReading(invocation: bot.rerun(c, [option: nil])) }
            let whole = FacetName.resolve(typed, among: names)
            let namesOne = if case .found = whole { true } else { false }
            if !namesOne || FacetName.resolve(plain, among: names) == whole { typed = plain }
        }
        let shown = Format.truncate(typed.trimmingCharacters(in: .whitespaces), 100)
        func ask(_ message: RichText, _ choices: [String]) -> ReplyError {
            let buttons = choices.prefix(5).map { name in
                Action(Format.truncate(name, 80), bot.rerun(c, [option: .string(name)]))
            }
            return ReplyError(Reply(visibility: .invokerOnly, text: message, actions: [Array(buttons)]))
        }
        switch FacetName.resolve(typed, among: names) {
        case .found(let name):
            return name
        case .several(let choices):
            let more = choices.count > 5 ? " and \(choices.count - 5) more" : ""
            throw ask(
                "More than one \(kind.rawValue) matches “\(shown)”: \(choices.prefix(5).joined(separator: ", "))\(more). Which one do you mean?",
                choices)
        case .unknown:
            guard !names.isEmpty else {
                throw ReplyError.notice(Self.noData(kind))
            }
            // "!gg top rpg on switch": a name of this kind, then one of another this command takes, not given yet.
            if typedHere,
                let (rest, other, name) = try await trailingFacet(typed, CatalogFilter()),
                other != kind, takesFacet(other, c),
                case .found(let own) = FacetName.resolve(rest, among: names)
            {
                throw TitleReading(invocation: bot.rerun(c, [option: .string(own), other.rawValue: .string(name)]))
            }
            // "/top nintendo 64": the name of another kind of facet this command takes, not given yet; "/browse
            // platform name:rpg": the browse of the other kind. Offered on Discord, where it was put in its option;
            // typed, it is run (the line's words go to the first option).
            for other in FacetKind.allCases where other != kind && other.rawValue != option {
                let browsing = c.invocation.path == ["browse", kind.rawValue]
                guard browsing || takesFacet(other, c),
                    case .found(let name) = FacetName.resolve(typed, among: try await bot.catalog.facetNames(other))
                else { continue }
                let meant =
                    browsing
                    ? CommandInvocation(path: ["browse", other.rawValue], options: [option: .string(name)])
                    : bot.rerun(c, [option: nil, other.rawValue: .string(name)])
                if typedHere { throw TitleReading(invocation: meant) }
                throw ReplyError(
                    Reply(
                        visibility: .invokerOnly,
                        text:
                            "“\(shown)” is a \(other.rawValue), not a \(kind.rawValue): did you mean \(code: meant.commandLine)?",
                        actions: [[Action(Format.truncate(name, 80), meant)]]))
            }
            var near = FacetName.closest(to: typed, among: names, limit: 5)
            if near.isEmpty { near = try await bot.catalog.facetNames(kind, matching: typed, limit: 5) }
            let message: RichText = "No \(kind.rawValue) is called “\(shown)”."
            guard near.isEmpty else { throw ask(message + " Did you mean: \(near.joined(separator: ", "))?", near) }
            let common = try await bot.catalog.facetNames(kind, matching: "", limit: 5)
            throw ask(message + " The most common: \(common.joined(separator: ", ")).", common)
        }
    }
}
