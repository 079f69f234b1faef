import Foundation

/// Group challenges: `/challenge create|join|leave|progress|show|list`.
struct ChallengeFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    func challengeCreate(
        name: String, goal: Double, unit: ChallengeUnit, endsAt: Date, _ c: Context
    ) async throws -> Reply {
        guard endsAt > c.now else {
            return .notice("A challenge must end today or later; \(code: "ends") is in the past.")
        }
        switch try await bot.store.social.createChallenge(
            in: c.invoker.community, name: name, goal: goal, unit: unit, startsAt: c.now, endsAt: endsAt,
            createdBy: c.player.id)
        {
        case .duplicateName:
            return .notice(
                "This server already has a challenge named “\(name)”. Names are unique per server.")
        case .created(let challenge):
            // The creator takes part from the start: the card lists them.
            let standings = try await bot.store.social.standings(challenge)
            return Reply(
                cards: [
                    challengeCard(
                        challenge, standings: standings, c, headline: "\(c.player.shownName) started a challenge")
                ],
                actions: [
                    [Action("Join", .run(.challenge, "join", ["name": .string(challenge.name)]), style: .primary)]
                ])
        }
    }

    /// The challenge a typed name means: its exact name, else the one whose name it fits as a genre's does (a
    /// start, every word, a small typo: "winter" is "Winter Sprint"). Several fits ask with a button each; none
    /// names the closest. The command stops there, changing nothing.
    func findChallenge(_ name: String, _ c: Context) async throws -> Challenge {
        if let challenge = try await bot.store.social.challenge(in: c.invoker.community, named: name) {
            return challenge
        }
        let all = try await bot.store.social.challenges(in: c.invoker.community)
        let names = all.map(\.name)
        let shown = Format.truncate(name.trimmingCharacters(in: .whitespaces), 100)
        func ask(_ message: RichText, _ choices: [String]) -> ReplyError {
            let buttons = choices.prefix(5).map { Action(Format.truncate($0, 80), bot.rerun(c, ["name": .string($0)])) }
            return ReplyError(Reply(visibility: .invokerOnly, text: message, actions: buttons.isEmpty ? [] : [buttons]))
        }
        switch FacetName.resolve(name, among: names) {
        case .found(let found):
            if let challenge = all.first(where: { $0.name == found }) { return challenge }
        case .several(let choices):
            throw ask(
                "More than one challenge here fits “\(shown)”: \(Format.sentence(Array(choices.prefix(5)))). Which one?",
                choices)
        case .unknown:
            break
        }
        let near = FacetName.closest(to: name, among: names, limit: 3)
        let hint: RichText =
            near.isEmpty
            ? " \(code: "/challenge list") shows them." : " Did you mean \(Format.sentence(near.map { "“\($0)”" }))?"
        throw ask("No challenge here is named “\(shown)”." + hint, near)
    }

    func challengeJoin(name: String, _ c: Context) async throws -> Reply {
        let challenge = try await findChallenge(name, c)
        guard !challenge.isOver(at: c.now) else {
            return .notice("“\(challenge.name)” is over. \(code: "/challenge show") has its final standing.")
        }
        guard try await bot.store.social.join(challenge, c.player.id, at: c.now) else {
            return .notice("You are already in “\(challenge.name)”.")
        }
        let standings = try await bot.store.social.standings(challenge)
        return Reply(
            cards: [challengeCard(challenge, standings: standings, c, headline: "\(c.player.shownName) joined")])
    }

    func challengeLeave(name: String, _ c: Context) async throws -> Reply {
        let challenge = try await findChallenge(name, c)
        let left = try await bot.store.social.leave(challenge, c.player.id)
        return .notice(
            left
                ? "You left “\(challenge.name)”." : "You were not in “\(challenge.name)”."
        )
    }

    func challengeProgress(name: String, amount: Double, _ c: Context) async throws -> Reply {
        let challenge = try await findChallenge(name, c)
        guard challenge.unit == .custom else {
            return .notice(
                "“\(challenge.name)” counts \(challenge.unit.label), which follow your library by themselves."
            )
        }
        guard !challenge.isOver(at: c.now) else { return .notice("“\(challenge.name)” is over.") }
        guard
            let standing = try await bot.store.social.addProgress(
                challenge, c.player.id, amount: amount, community: c.invoker.community, at: c.now)
        else {
            return .notice("Join “\(challenge.name)” first: \(code: "/challenge join name:\(challenge.name)").")
        }
        // The medal is stamped with this command's time when this progress reached the goal.
        let won = standing.medalAt.map { abs($0.timeIntervalSince(c.now)) < 0.001 } ?? false
        let standings = try await bot.store.social.standings(challenge)
        var reply = Reply(
            cards: [
                challengeCard(
                    challenge, standings: standings, c,
                    headline: won ? "🏅 \(c.player.shownName) reached the goal" : "\(c.player.shownName) made progress")
            ])
        if won { reply.announcement = bot.announcement(reply.cards, c) }
        return reply
    }

    func challengeShow(name: String, _ c: Context) async throws -> Reply {
        let challenge = try await findChallenge(name, c)
        let standings = try await bot.store.social.standings(challenge)
        return Reply(cards: [challengeCard(challenge, standings: standings, c, headline: nil)])
    }

    func challengeList(_ c: Context) async throws -> Reply {
        let challenges = try await bot.store.social.challenges(in: c.invoker.community)
        guard !challenges.isEmpty else {
            return .notice("No challenges here yet. Start one with \(code: "/challenge create").")
        }
        let lines = challenges.prefix(20).map { challenge -> RichText in
            let state =
                challenge.isOver(at: c.now) ? "ended" : "ends \(Format.date(challenge.endsAt.addingTimeInterval(-1)))"
            return
                "• \(bold: challenge.name) — \(Self.amount(challenge.goal)) \(challenge.unit.label), \(state)"
        }
        return Reply(
            cards: [Card(title: "Challenges", description: lines.joined(separator: "\n"), color: Palette.profile)])
    }

    static func amount(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    func challengeCard(_ challenge: Challenge, standings: [ChallengeStanding], _ c: Context, headline: String?) -> Card
    {
        let over = challenge.isOver(at: c.now)
        let lastDay = Format.date(challenge.endsAt.addingTimeInterval(-1))
        var description: RichText = "Goal: \(bold: "\(Self.amount(challenge.goal)) \(challenge.unit.label)") · "
        description +=
            over ? "ended \(lastDay)" : "until \(lastDay) (\(relative: challenge.endsAt))"
        if !standings.isEmpty {
            let lines = standings.prefix(15).enumerated().map { index, standing -> RichText in
                let bar = Format.bar(
                    Int(min(standing.progress, challenge.goal) * 100), of: Int(challenge.goal * 100), width: 10)
                let medal = standing.medalAt != nil ? " 🏅" : ""
                return
                    "\(code: "\(index + 1).") \(standing.player.shownName) \(code: "\(bar)") \(Self.amount(standing.progress))/\(Self.amount(challenge.goal))\(medal)"
            }
            description += "\n\n" + (over ? "\(bold: "Final standing")\n" : "") + lines.joined(separator: "\n")
        }
        return Card(
            title: [headline, challenge.name].compactMap { $0 }.joined(separator: ": "), description: description,
            footer: "\(standings.count) participant\(standings.count == 1 ? "" : "s")", color: Palette.profile)
    }

}
