import Foundation

/// Typed reads of validated option values.
struct TypedOptions {
    var values: [String: OptionValue]

    func string(_ name: String) -> String? {
        guard case .string(let s) = values[name] else { return nil }
        let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
    func int(_ name: String) -> Int? {
        guard case .integer(let i) = values[name] else { return nil }
        return i
    }
    func number(_ name: String) -> Double? {
        switch values[name] {
        case .number(let d): d
        case .integer(let i): Double(i)
        default: nil
        }
    }
    func bool(_ name: String) -> Bool? {
        guard case .boolean(let b) = values[name] else { return nil }
        return b
    }
    var user: UserMention? { mention("user") }
    func mention(_ name: String) -> UserMention? {
        guard case .user(let u) = values[name] else { return nil }
        return u
    }
    var title: TitleQuery { TitleQuery(string("title") ?? "") }
    var page: Int { int("page") ?? 1 }
}
