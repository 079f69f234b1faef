import Foundation

extension LibraryFeatures {
    /// What a library change means for the channel, whichever command made it: a change that completes a game is
    /// announced, each challenge medal it won gets a line and is announced too, and each running challenge it
    /// counts toward gets a line with where the player stands ("🏁 Winter Sprint: 2/3 games completed").
    func announcing(_ reply: Reply, _ change: EntryChange, _ c: Context) async throws -> Reply {
        var reply = reply
        if change.after?.status == .completed, change.before?.status != .completed, reply.announcements.isEmpty {
            reply.announcements = bot.announcements(reply.cards, about: change.after?.game, c)
        }
        let medals = change.medals.map { "🏅 \(c.player.shownName) won a medal in “\($0)”!" }.joined(separator: "\n")
        let steps = change.counted.map { challenge, progress -> RichText in
            let amounts = "\(Format.decimal(progress))/\(Format.decimal(challenge.goal))"
            return "🏁 \(bold: challenge.name): \(amounts) \(challenge.unit.label)"
        }
        // Hours lowered below a running challenge's goal take its medal back: said, so it does not just vanish.
        let lost = change.medalsTakenBack.map { RichText("Your medal in “\($0)” goes with the hours taken back.") }
        let lines = (medals.isEmpty ? [] : [RichText(medals)]) + steps + lost
        if !lines.isEmpty {
            reply.text = ([reply.text].compactMap { $0 } + lines).joined(separator: "\n")
        }
        // A medal is announced in its challenge's server, beside the change's news when that goes there too.
        var servers: [String] = []
        for server in change.medalServers where !servers.contains(server) { servers.append(server) }
        for server in servers {
            let names = zip(change.medals, change.medalServers).filter { $0.1 == server }.map(\.0)
            let medal = Card(
                title: "🏅 Medal",
                description: RichText(
                    names.map { "🏅 \(c.player.shownName) won a medal in “\($0)”!" }.joined(separator: "\n")),
                color: Palette.profile)
            if let index = reply.announcements.firstIndex(where: { $0.community == server }) {
                reply.announcements[index].cards.append(medal)
                continue
            }
            let target: AnnounceTarget? =
                if let target = c.announceTargets.first(where: { $0.community == server }) {
                    target
                } else {
                    try await bot.store.library.settings(of: server).announceTarget(in: server)
                }
            if let target {
                // A mature game's card stays out where the age gate hides it: the medal is news on its own.
                let shown = change.after?.game.isMature != true || target.showsMature
                reply.announcements.append(
                    Announcement(
                        channel: target.channel, cards: (shown ? reply.cards : []) + [medal], community: server))
            }
        }
        return reply
    }
}
