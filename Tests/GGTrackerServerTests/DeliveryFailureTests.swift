import Foundation
import GGTrackerCore
import GGTrackerStorage
import Logging
import Testing

@testable import GGTrackerServer

/// What a user is told when a command fails on our side: whether their change was saved is never misstated.
@Suite("Failures after a change")
struct DeliveryFailureTests {
    struct Broke: Error {}

    @Test func aFailureAfterTheChangeCommittedSaysTheChangeWasSaved() async throws {
        let harness = try await TestHarness()
        let services = harness.services
        let database = services.database
        let pipeline = DeliveryPipeline(bot: services.bot, database: database, metrics: services.metrics)
        let ada = Invoker(platform: .discord, userID: "4242", displayName: "Ada", community: "discord:1")
        _ = try await database.library.recordPlayer(ada, at: Date())
        let hades = try #require(try await database.catalog.game(GameRef(provider: "igdb", id: "113112")))
        func deliver(_ id: String, _ run: @escaping (GGTrackerBot) async throws -> Reply) async throws -> String {
            let delivered = try await pipeline.deliver(
                Delivery(id: id, platform: .discord, command: "wishlist"), logger: Logger(label: "test"), run: run,
                render: { Data($0.plainText().utf8) })
            guard case .answered(let data, _, let outcome) = delivered else {
                Issue.record("not answered: \(delivered)")
                return ""
            }
            #expect(outcome == .error)
            return String(decoding: data, as: UTF8.self)
        }

        // The wishlist change is committed, then the command fails before its answer is ready.
        let afterChange = try await deliver("after-change") { bot in
            _ = try await bot.store.library.addToWishlist(ada.player, game: hades, community: ada.community, at: Date())
            throw Broke()
        }
        #expect(afterChange.contains("Your change was saved"), "\(afterChange)")
        #expect(!afterChange.contains("nothing was changed"))
        #expect(try await database.library.isWishlisted(ada.player, game: hades.id))

        // A command that fails before writing anything says that nothing was changed, and nothing was.
        _ = try await database.library.removeFromWishlist(ada.player, game: hades.id)
        let beforeChange = try await deliver("before-change") { _ in throw Broke() }
        #expect(beforeChange.contains("nothing was changed"), "\(beforeChange)")
        #expect(try await !database.library.isWishlisted(ada.player, game: hades.id))
    }
}
