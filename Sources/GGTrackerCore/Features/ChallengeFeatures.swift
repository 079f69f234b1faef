import Foundation

/// Group challenges: `/challenge create|join|leave|progress|show|list`.
struct ChallengeFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    func challengeCreate(
        name: String, goal: Double, unit: ChallengeUnit, ends: TypedDay, _ c: Context
    ) async throws -> Reply {
        // A challenge runs to the end of its last day.
        guard let lastDay = ends.midnight(from: c.now) else {
            return .notice("\(code: "ends") names a day the calendar does not have that year.")
        }
        let endsAt = lastDay.addingTimeInterval(86_400)
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
        let all = try await bot.store.social.challenges(in: c.invoker.community, joinedBy: nil)
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

    /// Running challenges to pick from for a typed `join` or `leave` that named none: those the caller is not in, or
    /// is in; `none` when there is none.
    func pickChallenge(joining: Bool, none: RichText, _ c: Context) async throws -> Reply {
        let social = bot.store.social
        let yours = Set(try await social.challenges(in: c.invoker.community, joinedBy: c.player.id).map(\.id))
        let all = try await social.challenges(in: c.invoker.community, joinedBy: nil).filter { !$0.isOver(at: c.now) }
        let running = all.filter { yours.contains($0.id) != joining }
        guard !running.isEmpty else {
            guard joining, !all.isEmpty else { return .notice(none) }
            return .notice("You are in every running challenge here: \(code: "/challenge show") shows where you stand.")
        }
        return Reply(
            visibility: .invokerOnly, text: joining ? "Join which challenge?" : "Leave which challenge?",
            actions: [
                running.prefix(5).map {
                    Action(
                        Format.truncate($0.name, 80),
                        .run(.challenge, joining ? "join" : "leave", ["name": .string($0.name)]))
                }
            ])
    }

    func challengeJoin(name: String?, _ c: Context) async throws -> Reply {
        guard let name else {
            return try await pickChallenge(
                joining: true,
                none:
                    "No running challenge here to join: \(code: "/challenge create") starts one, \(code: "/challenge list") lists them.",
                c)
        }
        let challenge = try await findChallenge(name, c)
        guard !challenge.isOver(at: c.now) else {
            return .notice(
                "“\(challenge.name)” is over. \(code: "/challenge show name:\(challenge.name)") has its final standing."
            )
        }
        guard try await bot.store.social.join(challenge, c.player.id, at: c.now) else {
            return .notice("You are already in “\(challenge.name)”.")
        }
        let standings = try await bot.store.social.standings(challenge)
        return Reply(
            cards: [challengeCard(challenge, standings: standings, c, headline: "\(c.player.shownName) joined")])
    }

    func challengeLeave(name: String?, _ c: Context) async throws -> Reply {
        guard let name else {
            return try await pickChallenge(joining: false, none: "You are in no running challenge here.", c)
        }
        let challenge = try await findChallenge(name, c)
        switch try await bot.store.social.leave(challenge, c.player.id) {
        case .left: return .notice("You left “\(challenge.name)”.")
        case .wasNotIn: return .notice("You were not in “\(challenge.name)”.")
        case .keepsMedal:
            return .notice(
                "You won the medal of “\(challenge.name)”: it stays yours, and so does your place on its board.")
        }
    }

    /// The running challenge the caller takes part in (of those that count `custom` progress, when `custom`), for a
    /// command given no name; when there is none or more than one, the answer to give instead.
    func yourChallenge(custom: Bool, _ c: Context) async throws -> Result<Challenge, ReplyError> {
        let yours = try await bot.store.social.challenges(in: c.invoker.community, joinedBy: c.player.id)
            .filter { !$0.isOver(at: c.now) && (!custom || $0.unit == .custom) }
        if yours.count == 1 { return .success(yours[0]) }
        let kind = custom ? "running custom challenge" : "running challenge"
        guard !yours.isEmpty else {
            return .failure(
                ReplyError(
                    .notice(
                        "You are in no \(kind) here. \(code: "/challenge list") shows this server's, "
                            + "\(code: "/challenge join") takes part.")))
        }
        let buttons = yours.prefix(5).map {
            Action(Format.truncate($0.name, 80), bot.rerun(c, ["name": .string($0.name)]))
        }
        return .failure(
            ReplyError(
                Reply(
                    visibility: .invokerOnly,
                    text:
                        "You are in more than one \(kind): \(Format.sentence(yours.prefix(5).map { "“\($0.name)”" })). Which one?",
                    actions: [Array(buttons)])))
    }

    func challengeProgress(name: String?, amount: Double, _ c: Context) async throws -> Reply {
        let challenge =
            if let name { try await findChallenge(name, c) } else { try await yourChallenge(custom: true, c).get() }
        guard challenge.unit == .custom else {
            return .notice(
                "“\(challenge.name)” counts \(challenge.unit.label), which follow your library by themselves."
            )
        }
        guard !challenge.isOver(at: c.now) else { return .notice("“\(challenge.name)” is over.") }
        guard amount != 0 else {
            return .notice("An amount of 0 changes nothing: give how much to add, or below zero to take back.")
        }
        guard
            let (standing, medalTakenBack) = try await bot.store.social.addProgress(
                challenge, c.player.id, amount: amount, community: c.invoker.community, at: c.now)
        else {
            return .notice("Join “\(challenge.name)” first: \(code: "/challenge join name:\(challenge.name)").")
        }
        // The medal is stamped with this command's time when this progress reached the goal.
        let won = standing.medalAt.map { abs($0.timeIntervalSince(c.now)) < 0.001 } ?? false
        let standings = try await bot.store.social.standings(challenge)
        // Progress taken back never goes below none: a larger amount takes back all there was.
        let headline =
            if won { "🏅 \(c.player.shownName) reached the goal" } else if amount > 0 {
                "\(c.player.shownName) made progress"
            } else if standing.progress > 0 {
                "\(c.player.shownName) took back \(Format.decimal(-amount))\(medalTakenBack ? ", and the medal" : "")"
            } else {
                "\(c.player.shownName) took back all their progress\(medalTakenBack ? " and the medal" : "")"
            }
        var reply = Reply(cards: [challengeCard(challenge, standings: standings, c, headline: headline)])
        if won { reply.announcements = try await bot.announcements(reply.cards, about: nil, c) }
        return reply
    }

    func challengeShow(name: String?, _ c: Context) async throws -> Reply {
        let challenge: Challenge
        if let name {
            challenge = try await findChallenge(name, c)
        } else {
            // The one the caller is in, else the list to choose from.
            guard case .success(let yours) = try await yourChallenge(custom: false, c) else {
                return try await challengeList(c)
            }
            challenge = yours
        }
        let standings = try await bot.store.social.standings(challenge)
        return Reply(cards: [challengeCard(challenge, standings: standings, c, headline: nil)])
    }

    func challengeList(_ c: Context) async throws -> Reply {
        let challenges = try await bot.store.social.challenges(in: c.invoker.community, joinedBy: nil)
        guard !challenges.isEmpty else {
            return .notice("No challenges here yet. Start one with \(code: "/challenge create").")
        }
        let yours = Set(try await bot.store.social.challenges(in: c.invoker.community, joinedBy: c.player.id).map(\.id))
        let lines = challenges.prefix(20).map { challenge -> RichText in
            let state =
                challenge.isOver(at: c.now) ? "ended" : "ends \(Format.date(challenge.endsAt.addingTimeInterval(-1)))"
            return
                "• \(bold: challenge.name) — \(Format.decimal(challenge.goal)) \(challenge.unit.label), \(state)"
                + (yours.contains(challenge.id) ? " · you're in" : "")
        }
        // A button for the standings of each running one.
        let buttons = challenges.filter { !$0.isOver(at: c.now) }.prefix(5).map {
            Action(Format.truncate($0.name, 80), .run(.challenge, "show", ["name": .string($0.name)]))
        }
        return Reply(
            cards: [Card(title: "Challenges", description: lines.joined(separator: "\n"), color: Palette.profile)],
            actions: buttons.isEmpty ? [] : [Array(buttons)])
    }

    func challengeCard(_ challenge: Challenge, standings: [ChallengeStanding], _ c: Context, headline: String?) -> Card
    {
        let over = challenge.isOver(at: c.now)
        let lastDay = Format.date(challenge.endsAt.addingTimeInterval(-1))
        var description: RichText = "Goal: \(bold: "\(Format.decimal(challenge.goal)) \(challenge.unit.label)") · "
        description +=
            over ? "ended \(lastDay)" : "until \(lastDay) (\(relative: challenge.endsAt))"
        if !standings.isEmpty {
            let lines = standings.prefix(15).enumerated().map { index, standing -> RichText in
                let bar = Format.bar(
                    Int(min(standing.progress, challenge.goal) * 100), of: Int(challenge.goal * 100), width: 10)
                let medal = standing.medalAt != nil ? " 🏅" : ""
                return
                    "\(code: "\(index + 1).") \(standing.player.shownName) \(code: "\(bar)") \(Format.decimal(standing.progress))/\(Format.decimal(challenge.goal))\(medal)"
            }
            description += "\n\n" + (over ? "\(bold: "Final standing")\n" : "") + lines.joined(separator: "\n")
        }
        return Card(
            title: [headline, challenge.name].compactMap { $0 }.joined(separator: ": "), description: description,
            footer: "\(standings.count) participant\(standings.count == 1 ? "" : "s")", color: Palette.profile)
    }

}
