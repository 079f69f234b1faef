import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import HTTPTypes
import Hummingbird
import Logging

/// The running parts of the bot, built once and shared by the HTTP server and the command line.
package struct AppServices: Sendable {
    package var config: AppConfig
    package var database: AppDatabase
    package var catalog: LocalCatalog
    package var bot: GGTrackerBot

    package static let version = "0.1.0"

    package init(
        config: AppConfig, database: AppDatabase, catalog: LocalCatalog, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.config = config
        self.database = database
        self.catalog = catalog
        self.bot = GGTrackerBot(
            catalog: catalog, store: database,
            info: BotInfo(
                version: Self.version, homepage: config.publicURL,
                publicBaseURL: config.publicURL ?? "http://\(config.host):\(config.port)"),
            now: now)
    }

    /// Opens the database file (creating it and running migrations) and, in offline mode, loads the bundled
    /// catalog into an empty catalog.
    package static func open(config: AppConfig, logger: Logger) throws -> AppServices {
        let database = try AppDatabase.open(path: config.databasePath)
        var catalog = try LocalCatalog(database: database, providerName: config.catalog.rawValue)
        if config.catalog == .igdb, let id = config.igdbClientID, let secret = config.igdbClientSecret {
            // The catalog starts empty and fills from IGDB (`catalog refresh`), so counts and ids are IGDB's.
            let client = IGDBClient(
                apiBase: config.igdbAPIBase, oauthBase: config.twitchOAuthBase, clientID: id, clientSecret: secret,
                database: database, logger: logger)
            catalog.igdb = IGDBRefresh(client: client, database: database)
            catalog.provider = client
        }
        if config.catalog == .giantbomb, let key = config.giantBombAPIKey {
            catalog.provider = GiantBombClient(apiBase: config.giantBombAPIBase, apiKey: key, logger: logger)
        }
        if config.catalog == .offline {
            let start = Date()
            let loaded = try catalog.loadBundledIfEmpty()
            if loaded > 0 {
                logger.info(
                    "loaded the bundled catalog",
                    metadata: [
                        "games": "\(loaded)", "seconds": "\(String(format: "%.1f", Date().timeIntervalSince(start)))",
                    ])
            }
        }
        return AppServices(config: config, database: database, catalog: catalog)
    }
}

/// Builds the HTTP application: used by `ggtracker serve` and by the tests.
package func buildApplication(_ services: AppServices, logger: Logger) -> some ApplicationProtocol {
    let router = buildRouter(services)
    return Application(
        router: router,
        configuration: .init(
            address: .hostname(services.config.host, port: services.config.port), serverName: "GGTracker"),
        logger: logger)
}

package func buildRouter(_ services: AppServices) -> Router<BasicRequestContext> {
    let router = Router()
    let metrics = RequestMetrics()
    let discord = DiscordInteractionController(
        bot: services.bot, database: services.database,
        verifier: services.config.discordPublicKey.map(DiscordSignatureVerifier.init(publicKey:)),
        config: services.config,
        metrics: metrics,
        announcer: services.config.discordBotToken.map {
            DiscordAnnouncer(apiBase: services.config.discordAPIBase, botToken: $0)
        })
    router.post("/discord/interactions") { request, context in
        try await discord.handle(request, context: context)
    }
    MatrixController(
        bot: services.bot, database: services.database, config: services.config,
        client: services.config.matrixHomeserverURL.flatMap { url in
            services.config.matrixASToken.map { MatrixClient(homeserver: url, asToken: $0) }
        },
        metrics: metrics
    ).addRoutes(to: router)
    SlackController(bot: services.bot, database: services.database, config: services.config, metrics: metrics)
        .addRoutes(to: router)
    router.get("/u/:token") { _, context -> Response in
        let token = context.parameters.get("token") ?? ""
        let html: String
        var status = HTTPResponse.Status.ok
        // Tokens are 32 hex characters; anything else is not looked up.
        if token.count == 32, token.allSatisfy(\.isHexDigit),
            let shared = try await services.database.sharedLibrary(token: token)
        {
            html = SharedLibraryPage.html(player: shared.player, entries: shared.entries, now: Date())
        } else {
            html = SharedLibraryPage.notFound()
            status = .notFound
        }
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                HTTPField.Name("Content-Security-Policy")!:
                    "default-src 'none'; img-src https:; style-src 'unsafe-inline'",
                HTTPField.Name("X-Robots-Tag")!: "noindex",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
    router.get("/healthz") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }
    router.get("/metrics") { _, _ in
        let games = try await services.database.reader.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM games") ?? 0
        }
        let text = metrics.render(gauges: [("ggtracker_catalog_games", "Games in the local catalog.", Double(games))])
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
    return router
}
