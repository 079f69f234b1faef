extension RichText {
    /// The text as `render` writes it, in at most `limit` code points (as `Format.length` counts them). A longer text
    /// is cut inside the words of the span that does not fit, which ends with "…" and keeps its markup whole — a
    /// spoiler stays hidden, bold is closed, a link keeps its address, an escape is never split — and the spans
    /// after it are left out. `render` must write a text as the concatenation of its spans, each on its own.
    package func rendered(within limit: Int, _ render: (RichText) -> String) -> String {
        let whole = render(self)
        guard whole.utf8.count > limit, Format.length(whole) > limit else { return whole }
        guard limit > 0 else { return "" }
        // One code point is kept for the ellipsis from the start, so that it fits wherever the cut falls.
        let budget = limit - 1
        var kept = RichText()
        var used = 0
        for span in spans {
            let length = Format.length(render(RichText([span])))
            if used + length <= budget {
                kept.append(span)
                used += length
                continue
            }
            if let cut = Self.cut(span, within: budget - used + 1, render) {
                kept.append(cut)
            } else {
                kept.append(.plain("…"))
            }
            break
        }
        return render(kept)
    }

    /// The longest start of the span's words that, ended with "…", renders in at most `room` code points; nil when
    /// the span has no words to cut (a mention, a moment) or not even one character fits.
    private static func cut(_ span: Span, within room: Int, _ render: (RichText) -> String) -> Span? {
        let words: String
        let rebuild: (String) -> Span
        switch span {
        case .plain(let text): (words, rebuild) = (text, { .plain($0) })
        case .bold(let text): (words, rebuild) = (text, { .bold($0) })
        case .code(let text): (words, rebuild) = (text, { .code($0) })
        case .block(let text): (words, rebuild) = (text, { .block($0) })
        case .spoiler(let text): (words, rebuild) = (text, { .spoiler($0) })
        case .link(let label, let url): (words, rebuild) = (label, { .link($0, url: url) })
        case .relative, .mention, .channel: return nil
        }
        let characters = Array(words)
        func shortened(_ count: Int) -> Span {
            var start = String(characters[..<count])
            while start.last?.isWhitespace == true { start.removeLast() }
            return rebuild(start + "…")
        }
        func fits(_ count: Int) -> Bool { Format.length(render(RichText([shortened(count)]))) <= room }
        // The rendered length grows with the characters kept: the largest count that fits, by bisection.
        guard !characters.isEmpty, fits(1) else { return nil }
        var (low, high) = (1, characters.count)
        while low < high {
            let middle = (low + high + 1) / 2
            if fits(middle) { low = middle } else { high = middle - 1 }
        }
        return shortened(low)
    }
}
