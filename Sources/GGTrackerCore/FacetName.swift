import Foundation

/// Which of the catalog's genre, platform, mode or engine names a typed name means: "rpg" is "Role-playing
/// (RPG)", "ps4" "PlayStation 4", "switch" "Nintendo Switch", "coop" "Co-operative". Discord's autocomplete hands
/// over the catalog's own spelling; Matrix and Slack, which have none, hand over what the person typed.
package enum FacetName: Equatable, Sendable {
    /// The catalog's name for it.
    case found(String)
    /// Several names fit as well as each other, the likeliest first.
    case several([String])
    /// Nothing fits.
    case unknown

    /// A catalog name with what the rules compare, worked out once.
    struct Candidate {
        var name: String
        var words: [String]
        /// Its letters and digits.
        var compact: String
        /// What else it is called (`aliases(of:)`).
        var aliases: Set<String>
        /// The compact name and its aliases.
        var forms: [String]

        init(_ name: String) {
            self.name = name
            words = FacetName.words(name)
            compact = words.joined()
            aliases = FacetName.aliases(of: name)
            forms = [compact] + aliases
        }

        /// The fewest edits from `typed` (letters and digits) to one of its forms with the same numbers ("ps3" is
        /// not a typo of "ps4"), when at most `limit`.
        func distance(from typed: String, limit: Int) -> Int? {
            let bytes = Array(typed.utf8)
            let numbers = typed.filter(\.isNumber)
            return forms.filter { $0.filter(\.isNumber) == numbers }
                .compactMap { boundedLevenshtein(bytes, Array($0.utf8), limit: limit) }.min()
        }
    }

    /// The name among `names` (every name of one kind in the catalog) that `typed` means.
    package static func resolve(_ typed: String, among names: [String]) -> FacetName {
        Matcher(names).resolve(typed)
    }

    /// The names of one kind with what `resolve` compares worked out once, for names looked up again and again.
    package struct Matcher: Sendable {
        let known: [Candidate]
        /// Every name's forms, their starts of 3 letters or more, and every word: what a name typed without a typo
        /// must meet, so that one meeting none is turned down at once.
        let forms: Set<String>
        let starts: Set<String>
        let words: Set<String>

        package init(_ names: [String]) {
            known = names.map(Candidate.init)
            forms = Set(known.flatMap(\.forms))
            starts = Set(forms.flatMap { form in (3...max(3, form.count)).map { String(form.prefix($0)) } })
            words = Set(known.flatMap(\.words))
        }

        /// `typos: false` keeps to names as typed (the same letters, a short name, a start, every word), cheaply.
        package func resolve(_ typed: String, typos: Bool = true) -> FacetName {
            if !typos {
                let typedWords = FacetName.words(typed)
                let compact = typedWords.joined()
                let near =
                    (0...min(3, compact.count)).contains { forms.contains(String(compact.dropLast($0))) }
                    || (compact.count >= 3 && starts.contains(compact))
                    || (!typedWords.isEmpty && typedWords.allSatisfy(words.contains))
                guard near else { return .unknown }
            }
            return FacetName.resolve(typed, among: known, typos: typos)
        }
    }

    static func resolve(_ typed: String, among known: [Candidate], typos: Bool = true) -> FacetName {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .unknown }
        if let same = known.first(where: { $0.name.caseInsensitiveCompare(text) == .orderedSame }) {
            return .found(same.name)
        }
        let words = Self.words(text)
        let compact = words.joined()
        guard !compact.isEmpty else { return .unknown }
        /// How far each name is from what was typed under a rule, nil where the rule does not accept it; the first
        /// rule that accepts any name decides.
        let rules: [(Candidate) -> Int?] = [
            // The same letters and digits: "role playing rpg", "xbox series xs", "point and click".
            { $0.compact == compact ? 0 : nil },
            // A part of the name on its own or a usual short name: "(RPG)", "PC (…)", "…/Genesis", "ps4".
            { $0.aliases.contains(compact) ? 0 : nil },
            // A plural or a longer form of the name, or its start: "sports", "platformer", "coop", "multi".
            { candidate in
                candidate.forms.contains { form in
                    (compact.count >= 4 && compact.hasPrefix(form) && compact.count - form.count <= 3
                        && compact.dropFirst(form.count).allSatisfy(\.isLetter))
                        || (compact.count >= 3 && form.hasPrefix(compact))
                } ? 0 : nil
            },
            // Every typed word is a word of the name: "switch", "mega drive", "card game".
            { candidate in words.allSatisfy { candidate.words.contains($0) } ? 0 : nil },
            // A typo in the letters, the numbers as typed: one edit in 4 to 7 letters, two in more ("playstaton").
            { candidate in
                let limit = compact.count >= 8 ? 2 : compact.count >= 4 ? 1 : 0
                return limit > 0 ? candidate.distance(from: compact, limit: limit) : nil
            },
            // Each typed word a word of the name, or one edit from one (4 letters or more, the numbers as typed):
            // "wintr" is "Winter Sprint", "gamecub" "Nintendo GameCube".
            { candidate in
                var edits = 0
                for word in words where !candidate.words.contains(word) {
                    guard word.count >= 4,
                        candidate.words.contains(where: {
                            $0.filter(\.isNumber) == word.filter(\.isNumber)
                                && boundedLevenshtein(Array(word.utf8), Array($0.utf8), limit: 1) != nil
                        })
                    else { return nil }
                    edits += 1
                }
                return edits
            },
        ]
        for rule in typos ? rules[...] : rules.prefix(4) {
            let fitting = known.compactMap { candidate in rule(candidate).map { (candidate, $0) } }
            guard !fitting.isEmpty else { continue }
            // The nearest, then the fewest words besides the typed ones: "switch" is "Nintendo Switch" before
            // "Nintendo Switch 2".
            let ranked = fitting.map { candidate, distance in
                (name: candidate.name, distance: distance, words: candidate.words.count)
            }
            .sorted { ($0.distance, $0.words, $0.name) < ($1.distance, $1.words, $1.name) }
            if ranked.count == 1 || (ranked[0].distance, ranked[0].words) != (ranked[1].distance, ranked[1].words) {
                return .found(ranked[0].name)
            }
            return .several(ranked.map(\.name))
        }
        return .unknown
    }

    /// The names nearest to what was typed when none fits, for "did you mean": one edit in up to 4 letters, two
    /// in up to 7, three in more, the numbers as typed; nearest first.
    package static func closest(to typed: String, among names: [String], limit: Int) -> [String] {
        let compact = words(typed).joined()
        let allowed = compact.count >= 8 ? 3 : compact.count >= 5 ? 2 : 1
        guard compact.count >= 3 else { return [] }
        let near = names.compactMap { name in
            Candidate(name).distance(from: compact, limit: allowed).map { (name: name, distance: $0) }
        }
        return near.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(limit).map(\.name)
    }

    /// Lower case, accents off, split at anything that is not a letter or a digit.
    static func words(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// What else a name is called, each as its letters and digits: the words in brackets and those before them,
    /// each part between slashes, and the short names people use for the catalog's platforms and genres.
    static func aliases(of name: String) -> Set<String> {
        var parts = name.split(separator: "/").map(String.init)
        if let open = name.firstIndex(of: "("), let close = name[open...].firstIndex(of: ")") {
            parts += [String(name[..<open]), String(name[name.index(after: open)..<close])]
        }
        return Set(parts.map { words($0).joined() } + (shortNames[name] ?? []))
    }

    /// Short names of the catalog's names (IGDB's spelling, and Giant Bomb's where it differs), as letters and
    /// digits; a short name whose name the catalog does not have is never used.
    static let shortNames: [String: [String]] = [
        "PlayStation": ["ps1", "psx", "psone"], "PlayStation 2": ["ps2"], "PlayStation 3": ["ps3"],
        "PlayStation 4": ["ps4"], "PlayStation 5": ["ps5"], "PlayStation Portable": ["psp"],
        "PlayStation Vita": ["vita", "psvita", "psv"], "PlayStation VR": ["psvr"], "PlayStation VR2": ["psvr2"],
        "Nintendo Switch": ["switch", "ns"], "Nintendo Switch 2": ["switch2"], "Nintendo 64": ["n64"],
        "Nintendo Entertainment System": ["nes"], "Super Nintendo Entertainment System": ["snes"],
        "Nintendo GameCube": ["gc", "gcn", "ngc"], "GameCube": ["gc", "gcn", "ngc"], "Game Boy": ["gb"],
        "Game Boy Color": ["gbc"], "Game Boy Advance": ["gba"], "Nintendo DS": ["ds", "nds"],
        "Nintendo 3DS": ["3ds"], "Family Computer": ["famicom", "fc"], "Super Famicom": ["sfc"],
        "Xbox One": ["xone", "xb1", "xbone", "xbox1"], "Xbox 360": ["x360"],
        "Xbox Series X|S": ["xsx", "xss", "seriesx"],
        "PC (Microsoft Windows)": ["windows", "win", "pc"], "PC": ["windows", "win"],
        "Mac": ["macos", "osx", "macintosh"], "Sega Mega Drive/Genesis": ["megadrive", "md"],
        "Genesis": ["megadrive", "md"], "Sega Master System/Mark III": ["sms", "mastersystem"],
        "Sega Game Gear": ["gg", "gamegear"], "Dreamcast": ["dc"], "TurboGrafx-16/PC Engine": ["tg16", "pce"],
        "Commodore C64/128/MAX": ["c64"], "Shooter": ["fps", "shooting"], "Simulator": ["simulation", "sim"],
        "Music": ["rhythm"], "Visual Novel": ["vn"], "Single player": ["solo"],
    ]
}
