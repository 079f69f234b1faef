import Foundation

extension LibraryFeatures {
    /// What a library change means for the channel, whichever command made it: a change that completes a game is
    /// announced, each challenge medal it won gets a line and is announced too, and each running challenge it
    /// counts toward gets a line with where the player stands ("🏁 Winter Sprint: 2/3 games completed").
    func announcing(_ reply: Reply, _ change: EntryChange, _ c: Context) async throws -> Reply {
        var reply = reply
        let game = change.after?.game
        let completed = change.after?.status == .completed && change.before?.status != .completed
        let targets = completed || !change.medals.isEmpty ? try await bot.announceTargets(c) : []
        if completed, reply.announcements.isEmpty {
            reply.announcements = bot.announcements(reply.cards, about: game, to: targets)
        }
        func won(_ names: [String]) -> String {
            names.map { "🏅 \(c.player.shownName) won a medal in “\($0)”!" }.joined(separator: "\n")
        }
        let steps = change.counted.map { challenge, progress -> RichText in
            let amounts = "\(Format.decimal(progress))/\(Format.decimal(challenge.goal))"
            return "🏁 \(bold: challenge.name): \(amounts) \(challenge.unit.label)"
        }
        // Hours lowered below a running challenge's goal take its medal back: said, so it does not just vanish.
        let lost = change.medalsTakenBack.map { RichText("Your medal in “\($0)” goes with the hours taken back.") }
        let lines = (change.medals.isEmpty ? [] : [RichText(won(change.medals))]) + steps + lost
        if !lines.isEmpty {
            reply.text = ([reply.text].compactMap { $0 } + lines).joined(separator: "\n")
        }
        // A medal is announced in its challenge's server, beside the change's news when that goes there too.
        var servers: [String] = []
        for server in change.medalServers where !servers.contains(server) { servers.append(server) }
        for server in servers {
            let names = zip(change.medals, change.medalServers).filter { $0.1 == server }.map(\.0)
            let medal = Card(title: "🏅 Medal", description: RichText(won(names)), color: Palette.profile)
            if let index = reply.announcements.firstIndex(where: { $0.community == server }) {
                reply.announcements[index].cards.append(medal)
                continue
            }
            let target: AnnounceTarget? =
                if let target = targets.first(where: { $0.community == server }) {
                    target
                } else {
                    try await bot.store.library.settings(of: server).announceTarget(in: server)
                }
            if let target {
                // A mature game's card stays out where the age gate hides it: the medal is news on its own.
                reply.announcements.append(
                    Announcement(to: target, cards: (target.takes(game) ? reply.cards : []) + [medal]))
            }
        }
        return reply
    }
}
