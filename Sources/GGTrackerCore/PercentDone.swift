/// A percent given to `/progress`: the share of the game done (`percent:60`), or points to add to it
/// (`add_percent:10`, typed `+10%`; `-10%` takes them off). A number written alone is the share done.
package enum PercentDone: Hashable, Sendable, ExpressibleByIntegerLiteral {
    case total(Int)
    case added(Int)

    package init(integerLiteral value: Int) { self = .total(value) }

    /// The units a percent is written with.
    static let units = ["percent", "pct", "%"]

    /// `/progress`'s option for points to add, beside `percent`, the share done: below zero, points taken off.
    static let addedOption: OptionSpec = {
        var option = OptionSpec.integer(
            "add_percent", "Percent to add to that done: a session (below 0 takes it off)", min: -100, max: 100)
        option.units = units
        return option
    }()

    /// The options that add to a total ("+2h", "+10%", "-2h"), by the name of the total they add to: a word typed
    /// for one is theirs only with its sign, and a total never takes one.
    static let addingTo: [String: OptionSpec] = ["hours": PlayedHours.addedOption, "percent": addedOption]

    /// The share done after this change to `current`: from 0 to 100; nil where none was given to take off from.
    package func total(after current: Int?) -> Int? {
        switch self {
        case .total(let percent): percent
        case .added(let percent): current == nil && percent < 0 ? nil : min(100, max(0, (current ?? 0) + percent))
        }
    }

    /// What a change of the share done did, said on the game's card: "10% added: 50% done", "10% taken off: 30%
    /// done". Nil for a share done.
    func said(share: Int) -> String? {
        guard case .added(let change) = self else { return nil }
        return "\(abs(change))% \(change < 0 ? "taken off" : "added"): \(share)% done."
    }
}
