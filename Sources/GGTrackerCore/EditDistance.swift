import Foundation

/// Edit distance (insertions, deletions, substitutions and swaps of neighbours, each one edit) with a cut-off:
/// returns nil as soon as the distance must exceed `limit`. The three rows it keeps live on the stack: typo
/// correction calls this for thousands of known words per query word. Only the band of cells within `limit` of
/// the diagonal is computed (a cell further off costs more than `limit` edits): for a ten-letter word and a limit
/// of 2, five cells a row instead of eleven.
@inlinable
package func boundedLevenshtein<B: RandomAccessCollection<UInt8>>(_ a: [UInt8], _ b: B, limit: Int) -> Int?
where B.Index == Int {
    if abs(a.count - b.count) > limit { return nil }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let width = b.count + 1
    // Any cost above the limit is as good as another: cells just outside the band hold this one.
    let beyond = limit + 1
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows -> Int? in
        var twoBack = rows.baseAddress!
        var previous = twoBack + width
        var current = previous + width
        for j in 0..<width {
            twoBack[j] = 0
            previous[j] = j
            current[j] = 0
        }
        for i in 1...a.count {
            let low = max(1, i - limit)
            let high = min(b.count, i + limit)
            current[low - 1] = low == 1 ? i : beyond
            var rowMin = current[low - 1]
            for j in low...high {
                let bj = b[b.startIndex + j - 1]
                let cost = a[i - 1] == bj ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[b.startIndex + j - 2], a[i - 2] == bj {
                    value = min(value, twoBack[j - 2] + 1)
                }
                current[j] = value
                rowMin = min(rowMin, value)
            }
            // The next row reads this one's cell just past the band.
            if high < b.count { current[high + 1] = beyond }
            if rowMin > limit { return nil }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}

/// The names a mistyped word may mean, nearest first: one edit in up to 4 letters, two in more, or (from 3 letters)
/// the start of a name. For command and subcommand names: "lst" → list, "serch" → search, "leader" → leaderboard.
package func nearestNames(_ typed: String, among names: [String], limit count: Int = 3) -> [String] {
    let word = Array(typed.lowercased().utf8)
    guard word.count >= 2 else { return [] }
    let limit = word.count >= 5 ? 2 : 1
    let ranked = names.compactMap { name -> (String, Int)? in
        let letters = Array(name.utf8)
        if word.count >= 3 && letters.starts(with: word) { return (name, 0) }
        return boundedLevenshtein(word, letters, limit: limit).map { (name, $0) }
    }
    return ranked.sorted { $0.1 < $1.1 }.prefix(count).map(\.0)
}
