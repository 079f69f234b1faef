import Foundation
import GGTrackerCatalog
import GGTrackerStorage
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle

/// Refuses a request body over the route's limit with 413 as soon as its declared length says so, before
/// reading it; a body sent in chunks is cut off at the same limit while it is read.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Matrix transactions carry up to 100 events; chat platforms' requests are a few kilobytes.
    static func limit(for path: String) -> Int {
        path.hasPrefix("/_matrix/") || path.hasPrefix("/transactions/") ? 8 << 20 : 1 << 20
    }

    // Hummingbird's middleware protocol asks for a function that runs apart from its caller.
    @concurrent func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        let limit = Self.limit(for: request.uri.path)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            return Response(
                status: .contentTooLarge, headers: [.contentType: "text/plain", .connection: "close"],
                body: .init(byteBuffer: ByteBuffer(string: "request body over \(limit) bytes\n")))
        }
        return try await next(request, context)
    }
}

/// Housekeeping next to the HTTP server: forgets old delivery ids every hour, sends release alerts every
/// `GGTRACKER_ALERT_INTERVAL`, and at shutdown (after the
/// server has finished its in-flight requests) lets a catalog refresh store its current page, then
/// checkpoints and closes the database.
package struct Maintenance: Service {
    let services: AppServices
    let logger: Logger
    var interval: Duration = .seconds(3600)

    package init(services: AppServices, logger: Logger, interval: Duration = .seconds(3600)) {
        self.services = services
        self.logger = logger
        self.interval = interval
    }

    func tidy() async {
        do {
            let removed = try await services.database.deliveries.prune()
            try services.database.checkpoint()
            logger.debug("pruned delivery ids", metadata: ["rows": "\(removed)"])
        } catch {
            logger.warning("maintenance failed", metadata: ["error": "\(error)"])
        }
    }

    package func run() async throws {
        await tidy()
        let interval = self.interval
        let ticker = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                await tidy()
            }
        }
        defer { ticker.cancel() }
        // Wishlisted games released today are announced: one check now, then every `alertInterval`.
        let alerts = ReleaseAlerts(services: services, logger: logger)
        let alertInterval = services.config.alertInterval
        let alerter = Task {
            guard alertInterval > .zero else { return }
            while !Task.isCancelled {
                do {
                    for line in try await alerts.check() { logger.info("release alert sent: \(line)") }
                } catch {
                    logger.warning("release alert check failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: alertInterval)
            }
        }
        defer { alerter.cancel() }
        // Memory freed after a burst of requests goes back to the system within seconds.
        let trimmer = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(5))
                returnFreeMemory()
            }
        }
        defer { trimmer.cancel() }
        try? await gracefulShutdown()
        if services.catalog.refreshProgress != nil {
            logger.info("shutting down: waiting for the running catalog refresh to store its current page")
        }
        await services.catalog.stopRefreshing()
        do {
            try services.database.close()
            logger.info("database checkpointed and closed")
        } catch {
            logger.error("closing the database failed", metadata: ["error": "\(error)"])
        }
    }
}

/// Runs the HTTP server and the housekeeping until SIGTERM or SIGINT: the server stops accepting, finishes the
/// requests it has, then the housekeeping closes the database.
package func serve(_ services: AppServices, logger: Logger) async throws {
    let app = buildApplication(services, logger: logger)
    var configuration = ServiceGroupConfiguration(
        services: [
            .init(service: Maintenance(services: services, logger: logger)),
            .init(service: app),
        ],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger)
    // A client that stops sending in the middle of a request must not hold the shutdown forever.
    configuration.maximumGracefulShutdownDuration = .seconds(30)
    configuration.maximumCancellationDuration = .seconds(5)
    let group = ServiceGroup(configuration: configuration)
    try await group.run()
}
