import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerStorage

/// A delivery's change on PostgreSQL is made in the command's transaction and held there until its answer is
/// stored with it: nothing of it is seen before, all of it after, none of it when the command ends without an
/// answer, and a change made meanwhile by another command is never overwritten.
@Suite("Changes held for their answer on PostgreSQL")
struct PostgresHeldChangeTests {
    /// The library fixture on PostgreSQL with Alice recorded and Hades in her library; nil without a server.
    func fixture() async throws -> (LibraryFixture, Player)? {
        guard Backend.postgresURL != nil else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "GGTRACKER_TEST_POSTGRES is not set")
            return nil
        }
        let f = try await LibraryFixture(.postgres)
        let alice = try await f.database.library.recordPlayer(f.invoker("alice"), at: f.now)
        _ = try await f.database.library.updateEntry(of: alice.id, game: f.hades, community: "discord:1", at: f.now) {
            $0 = LibraryEntry(game: f.hades, status: .playing, at: f.now)
        }
        return (f, alice)
    }

    /// A command's view of the database that holds its change (reads kept open however long the test takes).
    func command(_ f: LibraryFixture, _ claim: DeliveryClaim) -> AppDatabase {
        f.database.claiming(claim, readsIdle: .seconds(30), holdingChanges: true)
    }

    func hours(_ f: LibraryFixture, _ player: Player) async throws -> Double? {
        try await f.database.library.entry(of: player.id, game: f.hades.id)?.hours
    }

    func setHours(_ hours: Double, _ database: AppDatabase, _ f: LibraryFixture, _ player: Player) async throws {
        _ = try await database.library.updateEntry(of: player.id, game: f.hades, community: "discord:1", at: f.now) {
            $0?.hours = hours
        }
    }

    @Test func aHeldChangeIsCommittedWithItsAnswerInTwoRoundTrips() async throws {
        guard let (f, alice) = try await fixture() else { return }
        let claim = DeliveryClaim(id: "interaction-1")
        let command = command(f, claim)
        defer { command.endReads() }
        let before = f.database.counters.postgresRoundTrips
        let caller = try await command.library.caller(
            f.invoker("alice"), at: f.now, naming: GameRef(provider: "igdb", id: "113112"))
        #expect(caller.namedGame?.id == f.hades.id)
        // What the change starts from was read with the caller: neither the entry nor the change waits.
        #expect(try await command.library.entry(of: alice.id, game: f.hades.id)?.hours == nil)
        try await setHours(12, command, f, alice)
        #expect(command.holdsChange)
        let trips = f.database.counters.postgresRoundTrips - before
        #expect(trips == 1)
        // Nothing of it is seen before its answer is stored.
        #expect(try await hours(f, alice) == nil)
        #expect(try await !f.database.deliveries.deliverySeen("interaction-1"))
        // The command itself reads its change.
        let mark = f.database.counters.postgresRoundTrips
        #expect(try await command.library.entry(of: alice.id, game: f.hades.id)?.hours == 12)
        try await command.deliveries.recordProcessed("interaction-1", response: Data("answer".utf8), claim: claim)
        #expect(
            trips + f.database.counters.postgresRoundTrips - mark == 3,
            "the caller, the read after the change, the commit")
        #expect(claim.committedSomething && !command.holdsChange)
        #expect(try await hours(f, alice) == 12)
        #expect(try await f.database.deliveries.processedResponse("interaction-1") == Data("answer".utf8))
    }

    @Test func aHeldChangeNeverAnsweredIsRolledBack() async throws {
        guard let (f, alice) = try await fixture() else { return }
        let claim = DeliveryClaim(id: "interaction-1")
        let command = command(f, claim)
        _ = try await command.library.caller(f.invoker("alice"), at: f.now, naming: nil)
        try await setHours(12, command, f, alice)
        // The command failed after its change: ending it keeps nothing of it.
        command.endReads()
        #expect(!claim.committedSomething)
        #expect(try await hours(f, alice) == nil)
        #expect(try await !f.database.deliveries.deliverySeen("interaction-1"))
    }

    @Test func aChangeMadeMeanwhileIsNotOverwritten() async throws {
        guard let (f, alice) = try await fixture() else { return }
        let claim = DeliveryClaim(id: "interaction-1")
        let command = command(f, claim)
        defer { command.endReads() }
        _ = try await command.library.caller(
            f.invoker("alice"), at: f.now, naming: GameRef(provider: "igdb", id: "113112"))
        // Another command changes the entry after this one read it, and commits first.
        try await setHours(5, f.database, f, alice)
        try await setHours(12, command, f, alice)
        await #expect(throws: CommandConflict.self) {
            try await command.deliveries.recordProcessed("interaction-1", response: Data("answer".utf8), claim: claim)
        }
        #expect(try await hours(f, alice) == 5)
        #expect(try await !f.database.deliveries.deliverySeen("interaction-1"))
        // The command cannot go on as if its change were made.
        await #expect(throws: CommandConflict.self) {
            try await command.library.entry(of: alice.id, game: f.hades.id)
        }
    }

    @Test func aDeliveryAnotherAttemptAppliedIsNotAppliedAgain() async throws {
        guard let (f, alice) = try await fixture() else { return }
        // The first attempt committed its change and died before storing its answer.
        try await setHours(5, f.database.claiming(DeliveryClaim(id: "interaction-1")), f, alice)
        let claim = DeliveryClaim(id: "interaction-1")
        let command = command(f, claim)
        defer { command.endReads() }
        // The claim is refused by the database, at the change's first wait or at its commit.
        await #expect(throws: DeliveryAlreadyApplied.self) {
            try await setHours(12, command, f, alice)
            try await command.deliveries.recordProcessed("interaction-1", response: Data("answer".utf8), claim: claim)
        }
        #expect(try await hours(f, alice) == 5)
        #expect(try await f.database.deliveries.processedResponse("interaction-1") == nil)
    }

    @Test func aRefusedChangeLeavesNothingHeldAndTheCommandGoesOn() async throws {
        guard let (f, alice) = try await fixture() else { return }
        struct Refused: Error {}
        let command = command(f, DeliveryClaim(id: "interaction-1"))
        defer { command.endReads() }
        await #expect(throws: Refused.self) {
            try await command.library.updateEntry(of: alice.id, game: f.hades, community: "discord:1", at: f.now) {
                $0?.hours = 12
                throw Refused()
            }
        }
        #expect(!command.holdsChange)
        #expect(try await !f.database.deliveries.deliverySeen("interaction-1"))
        #expect(try await command.library.entry(of: alice.id, game: f.hades.id)?.hours == nil)
    }
}
