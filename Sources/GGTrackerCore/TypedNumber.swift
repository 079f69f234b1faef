/// A word typed for a number option that the option may not take ("11" for a score, "150%" for a percent, "4.3
/// stars"): what the option takes instead, and whether the word is out of its range.
struct TypedNumber {
    var word: String
    var option: OptionSpec

    /// What the option takes, said after the word: its kind and range, and for a score, how stars are typed.
    var whatTheOptionTakes: RichText {
        var text: RichText = ""
        if option.starsScale(of: word) != nil {
            // "4.3 stars", "6/5": stars, but not whole or half ones up to five.
            text += "whole or half stars from ½ to 5, like \(code: "4.5 stars"), or "
        }
        text += option.kind == .integer ? "a whole number" : "a number"
        if let low = option.minValue, let high = option.maxValue {
            text += " from \(Format.number(Int(low))) to \(Format.number(Int(high)))"
        }
        // "4.5" may be stars: said how to type it so.
        if option.validValue(word + "/5") != nil { text += " (stars out of five: \(code: word + "/5"))" }
        return text
    }

    /// Whether the word is a number the option reads but does not take ("150%" for a percent, "30000h" for hours):
    /// typed with its unit, or with `bare`, a whole number up to ten times the highest ("11" or "0" for a score;
    /// "1942" may be a game's name).
    func isOutOfRange(bare: Bool) -> Bool {
        guard option.kind == .integer || option.kind == .number, let value = option.reading(word),
            option.validValue(word) == nil
        else { return false }
        if option.carriesUnit(word) || option.starsScale(of: word) != nil { return true }
        guard bare, case .integer(let number) = value, Int(word) != nil, let maxValue = option.maxValue else {
            return false
        }
        return Double(number) <= 10 * maxValue
    }

    /// The refusal of the word: "“150%” is out of range: `percent` takes a whole number from 0 to 100."
    var outOfRange: UsageError {
        UsageError("“\(word)” is out of range: \(code: option.name) takes " + whatTheOptionTakes + ".")
    }
}
