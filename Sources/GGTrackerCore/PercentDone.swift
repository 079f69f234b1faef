/// A percent given to `/progress`: the share of the game done (`percent:60`), or points to add to it
/// (`add_percent:10`, typed `+10%`). A number written alone is the share done.
package enum PercentDone: Hashable, Sendable, ExpressibleByIntegerLiteral {
    case total(Int)
    case added(Int)

    package init(integerLiteral value: Int) { self = .total(value) }

    /// The units a percent is written with.
    static let units = ["percent", "pct", "%"]

    /// `/progress`'s option for points to add, beside `percent`, the share done.
    static let addedOption: OptionSpec = {
        var option = OptionSpec.integer("add_percent", "Percent to add to that done: a session", min: 1, max: 100)
        option.units = units
        return option
    }()

    /// The options that add to a total ("+2h", "+10%"), by the name of the total they add to: a word typed for
    /// one is theirs only with its "+", and a total never takes one.
    static let addingTo: [String: OptionSpec] = ["hours": PlayedHours.addedOption, "percent": addedOption]

    /// The share done after this change to `current`: never above 100.
    package func total(after current: Int?) -> Int {
        switch self {
        case .total(let percent): percent
        case .added(let percent): min(100, (current ?? 0) + percent)
        }
    }
}
