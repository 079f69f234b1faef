import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging

/// The running parts of the bot, built once and shared by the HTTP server and the command line.
package struct AppServices: Sendable {
    package var config: AppConfig
    package var database: AppDatabase
    package var catalog: LocalCatalog
    package var bot: GGTrackerBot
    /// Counters, histograms and gauges for `GET /metrics`.
    package var metrics: RequestMetrics
    /// What request bodies not yet verified may hold in memory together.
    package let bodyBudget: UnverifiedBodyBudget
    /// The announce channels this installation can post to (also the bot's `announcers`).
    package var announcers: ChannelAnnouncers

    package static let version = "0.1.0"

    package init(
        config: AppConfig, database: AppDatabase, catalog: LocalCatalog, metrics: RequestMetrics = RequestMetrics(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.config = config
        self.metrics = metrics
        self.bodyBudget = UnverifiedBodyBudget(limit: config.unverifiedBodyBytes)
        self.announcers = ChannelAnnouncers(config: config)
        self.database = database
        self.catalog = catalog
        self.bot = GGTrackerBot(
            catalog: catalog, store: database.stores,
            info: BotInfo(
                version: Self.version, homepage: config.publicURL,
                publicBaseURL: config.publicURL ?? "http://\(config.host):\(config.port)"),
            now: now)
        self.bot.floodGuard = FloodGuard(config.limits)
        var sources = LibrarySourcesClient(
            steamAPIBase: config.steamAPIBase, steamAPIKey: config.steamAPIKey,
            attachmentBases: [config.discordCDNBase])
        if let homeserver = config.matrixHomeserverURL, let token = config.matrixASToken {
            sources.matrixMedia = (homeserver, token)
        }
        if let token = config.slackFiles.botToken {
            sources.slackFiles = (config.slackFiles.filesBase, token)
        }
        self.bot.sources = sources
        self.bot.announcers = announcers
    }

    /// Opens the database file (creating it and running migrations) and, in offline mode, loads the bundled
    /// catalog into an empty catalog.
    package static func open(config: AppConfig, logger: Logger) async throws -> AppServices {
        let database = try await AppDatabase.open(config.databasePath)
        let metrics = RequestMetrics()
        var catalog = try await LocalCatalog(database: database, providerName: config.catalog.rawValue)
        if config.catalog == .igdb, let id = config.igdbClientID, let secret = config.igdbClientSecret {
            // The catalog starts empty and fills from IGDB (`catalog refresh`), so counts and ids are IGDB's.
            // Replicas sharing PostgreSQL count IGDB calls there, so together they stay under IGDB's 4 a second.
            var client = IGDBClient(
                apiBase: config.igdbAPIBase, oauthBase: config.twitchOAuthBase, clientID: id, clientSecret: secret,
                database: database,
                limiter: database.isPostgres
                    ? RateLimiter(perSecond: 4, maxInFlight: 8, cluster: (database, "igdb")) : IGDBClient.sharedLimiter,
                logger: logger)
            client.metrics = metrics.factory
            catalog.igdb = IGDBRefresh(client: client, database: database)
            catalog.provider = client
        }
        if config.catalog == .giantbomb, let key = config.giantBombAPIKey {
            var client = GiantBombClient(apiBase: config.giantBombAPIBase, apiKey: key, logger: logger)
            client.metrics = metrics.factory
            catalog.provider = client
        }
        if config.catalog == .offline {
            let start = Date()
            let loaded = try await catalog.loadBundledIfEmpty()
            if loaded > 0 {
                logger.info(
                    "loaded the bundled catalog",
                    metadata: [
                        "games": "\(loaded)", "seconds": "\(String(format: "%.1f", Date().timeIntervalSince(start)))",
                    ])
            }
        }
        return AppServices(config: config, database: database, catalog: catalog, metrics: metrics)
    }
}

/// Builds the HTTP application: used by `ggtracker serve` and by the tests.
package func buildApplication(_ services: AppServices, logger: Logger) -> some ApplicationProtocol {
    let router = buildRouter(services)
    return Application(
        router: router,
        // Keep-alive connections with nothing to say are closed after a minute.
        server: .http1(configuration: .init(idleTimeout: .seconds(60))),
        configuration: .init(
            address: .hostname(services.config.host, port: services.config.port), serverName: "GGTracker",
            availableConnectionsDelegate: MaximumAvailableConnections(services.config.maxConnections)),
        logger: logger)
}

package func buildRouter(_ services: AppServices) -> Router<BasicRequestContext> {
    let router = Router()
    let metrics = services.metrics
    router.add(middleware: BodyLimitMiddleware())
    let discord = DiscordInteractionController(
        bot: services.bot, database: services.database,
        verifier: services.config.discordPublicKey.map(DiscordSignatureVerifier.init(publicKey:)),
        config: services.config,
        metrics: metrics,
        announcers: services.announcers)
    router.group("discord")
        .add(middleware: SignedBody.discord(discord.verifier, budget: services.bodyBudget, metrics: metrics))
        .post("interactions") { request, context in try await discord.handle(request, context: context) }
    MatrixController(
        bot: services.bot, database: services.database, config: services.config,
        client: services.config.matrixHomeserverURL.flatMap { url in
            services.config.matrixASToken.map { MatrixClient(homeserver: url, asToken: $0) }
        },
        metrics: metrics
    ).addRoutes(to: router)
    SlackController(
        bot: services.bot, database: services.database, config: services.config, metrics: metrics,
        bodyBudget: services.bodyBudget, announcers: services.announcers
    )
    .addRoutes(to: router)
    router.get("/u/:token") { _, context -> Response in
        let token = context.parameters.get("token") ?? ""
        guard SharedLibraryPage.isToken(token),
            let shared = try await services.database.social.sharedLibrary(token: token)
        else { return SharedLibraryPage.response(SharedLibraryPage.notFound(), status: .notFound) }
        return SharedLibraryPage.response(
            SharedLibraryPage.html(
                player: shared.player, entries: shared.entries, wishlist: shared.wishlist, token: token, now: Date()))
    }
    router.get("/u/:token/recap/:year") { _, context -> Response in
        let token = context.parameters.get("token") ?? ""
        let now = Date()
        guard SharedLibraryPage.isToken(token), let year = context.parameters.get("year").flatMap({ Int($0) }),
            YearRecap.isAskable(year, now: now),
            let player = try await services.database.social.sharedPlayer(token: token)
        else { return SharedLibraryPage.response(SharedLibraryPage.notFound(), status: .notFound) }
        let recap = try await services.database.library.recap(of: player.id, year: year)
        return SharedLibraryPage.response(RecapPage.html(player: player, recap: recap, token: token))
    }
    router.get("/export/:file") { request, context -> Response in
        try await ExportDownload.response(
            file: context.parameters.get("file") ?? "", userAgent: request.headers[.userAgent],
            database: services.database, now: services.bot.now())
    }
    router.get("/healthz") { _, _ in
        // Alive: the process answers HTTP.
        Response(
            status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }
    router.get("/readyz") { _, context in
        // Ready: the database answers, takes a write, and its schema is this version's.
        let unready: String?
        do {
            unready = try await services.database.isReady() ? nil : "not every migration of this version has run"
        } catch {
            context.logger.error("database not reachable", metadata: ["error": "\(error)"])
            unready = "database unavailable"
        }
        return Response(
            status: unready == nil ? .ok : .serviceUnavailable, headers: [.contentType: "text/plain"],
            body: .init(byteBuffer: ByteBuffer(string: unready.map { "not ready: \($0)\n" } ?? "ready\n")))
    }
    router.get("/metrics") { _, _ in
        let status = try await services.catalog.status()
        metrics.gauge("ggtracker_catalog_games", "Games in the local catalog.", Double(status.games))
        metrics.gauge(
            "ggtracker_database_bytes", "Size of the database file and its write-ahead log.",
            Double(services.database.fileSize()))
        let progress = services.catalog.refreshProgress
        metrics.gauge("ggtracker_catalog_refresh_running", "1 while a catalog refresh runs.", status.refreshing ? 1 : 0)
        metrics.gauge(
            "ggtracker_catalog_refresh_done_games", "Games stored by the running refresh.", Double(progress?.done ?? 0))
        metrics.gauge(
            "ggtracker_catalog_refresh_total_games", "Games the running refresh will store, when known.",
            Double(progress?.total ?? 0))
        metrics.gauge(
            "ggtracker_provider_circuit_open", "1 while the catalog provider is not asked after repeated failures.",
            services.catalog.breaker.isOpen ? 1 : 0)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
    }
    return router
}
