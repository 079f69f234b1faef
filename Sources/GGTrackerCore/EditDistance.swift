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
