/// Hours given to `/progress`: the total played (`hours:12`), or hours to add to those logged (`add_hours:2`, typed
/// `+2h`). A number written alone is a total.
package enum PlayedHours: Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    case total(Double)
    case added(Double)

    package init(integerLiteral value: Int) { self = .total(Double(value)) }
    package init(floatLiteral value: Double) { self = .total(value) }

    /// The most hours one game holds, as `hours` takes them.
    package static let most: Double = 20_000

    /// `/progress`'s option for hours to add, beside `hours`, the total.
    static let addedOption = OptionSpec(
        name: "add_hours", summary: "Hours to add to those played: a session", kind: .number, minValue: 0,
        maxValue: most, units: OptionSpec.hourUnits)

    /// Whether a word typed without an option's name may be `option`'s: hours to add only with their "+" ("+2h";
    /// "2h" is the total), any word for any other option.
    static func mayBe(_ word: String, _ option: OptionSpec) -> Bool {
        option.name != addedOption.name || word.hasPrefix("+")
    }

    /// The hours played after this change to `current`.
    package func total(after current: Double?) -> Double {
        switch self {
        case .total(let hours): hours
        case .added(let hours): (current ?? 0) + hours
        }
    }
}
