@preconcurrency import Crypto
import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerServer
import GGTrackerStorage
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// A bot on a real database with the fixture catalog, and a signing key standing in for Discord's.
struct TestHarness {
    var key = Curve25519.Signing.PrivateKey()
    let services: AppServices

    static let fixturePath = Bundle.module.path(forResource: "games", ofType: "jsonl", inDirectory: "Fixtures")!

    /// A harness around services built elsewhere (a catalog with a provider), signing with `key`.
    init(services: AppServices, key: Curve25519.Signing.PrivateKey) {
        self.services = AppServices(
            config: services.config, database: services.database, catalog: services.catalog, metrics: services.metrics)
        self.key = key
    }

    init(
        databasePath: String? = nil, adminIDs: Set<String> = [], emptyCatalog: Bool = false,
        configure: (inout AppConfig) -> Void = { _ in }, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        var config = AppConfig()
        config.discordPublicKey = key.publicKey
        config.adminIDs = adminIDs
        // Replies are awaited in full unless a test is about deferral: a loaded machine must not change answers.
        config.deferAfter = .seconds(120)
        // Tests send bursts from one user; the rate limits have their own tests.
        config.limits = .init(userPerMinute: 0, serverPerMinute: 0)
        configure(&config)
        let database =
            if let databasePath { try await AppDatabase.open(databasePath) } else { try AppDatabase.inMemory() }
        let catalog = try await LocalCatalog(database: database)
        if try await database.catalog.gameCount() == 0 && !emptyCatalog {
            _ = try await CatalogImporter(database: database).importFile(Self.fixturePath)
            try await catalog.reloadVocabulary()
        }
        services = AppServices(config: config, database: database, catalog: catalog, now: now)
    }

    /// Runs `body` against the router, without a socket. Warnings are logged; a test that sends thousands of bad
    /// requests on purpose asks for errors only.
    func withClient<T: Sendable>(
        logLevel: Logger.Level = .warning, _ body: @Sendable (Client) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "test")
        logger.logLevel = logLevel
        let app = buildApplication(services, logger: logger)
        let key = self.key
        return try await app.test(.router) { client in try await body(Client(client: client, key: key)) }
    }

    /// Runs `body` against a real socket on 127.0.0.1, for clients outside the process (a browser).
    func withLiveClient<T: Sendable>(_ body: @Sendable (Client, Int) async throws -> T) async throws -> T {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let app = buildApplication(services, logger: logger)
        let key = self.key
        return try await app.test(.live) { client in
            try await body(Client(client: client, key: key), client.port!)
        }
    }

    struct Client {
        let client: any TestClientProtocol
        let key: Curve25519.Signing.PrivateKey

        struct Answer {
            var status: HTTPResponse.Status
            var body: Data
            var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
            var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
            var type: Int? { json["type"] as? Int }
            var ephemeral: Bool { ((data["flags"] as? Int) ?? 0) & 64 != 0 }
            var content: String { data["content"] as? String ?? "" }
            var embeds: [[String: Any]] { data["embeds"] as? [[String: Any]] ?? [] }
            /// Everything a person reads: content, embed titles, descriptions, fields and footers.
            var text: String {
                var parts = [content]
                for embed in embeds {
                    parts += [embed["title"], embed["description"]].compactMap { $0 as? String }
                    for field in embed["fields"] as? [[String: Any]] ?? [] {
                        parts += [field["name"], field["value"]].compactMap { $0 as? String }
                    }
                    parts.append((embed["footer"] as? [String: Any])?["text"] as? String ?? "")
                }
                return parts.joined(separator: "\n")
            }
            /// Buttons and select options: (label, custom id).
            var buttons: [(label: String, customID: String)] {
                var out: [(String, String)] = []
                for row in data["components"] as? [[String: Any]] ?? [] {
                    for c in row["components"] as? [[String: Any]] ?? [] where c["type"] as? Int == 2 {
                        out.append((c["label"] as? String ?? "", c["custom_id"] as? String ?? ""))
                    }
                }
                return out
            }
            var selectOptions: [(label: String, value: String)] {
                var out: [(String, String)] = []
                for row in data["components"] as? [[String: Any]] ?? [] {
                    for c in row["components"] as? [[String: Any]] ?? [] where c["type"] as? Int == 3 {
                        for o in c["options"] as? [[String: Any]] ?? [] {
                            out.append((o["label"] as! String, o["value"] as! String))
                        }
                    }
                }
                return out
            }
            func button(_ label: String) -> String? { buttons.first { $0.label.contains(label) }?.customID }
        }

        /// Posts raw bytes with the given signature headers.
        func post(_ body: Data, signature: String?, timestamp: String?) async throws -> Answer {
            var headers: HTTPFields = [.contentType: "application/json"]
            if let signature { headers[HTTPField.Name("X-Signature-Ed25519")!] = signature }
            if let timestamp { headers[HTTPField.Name("X-Signature-Timestamp")!] = timestamp }
            return try await client.execute(
                uri: "/discord/interactions", method: .post, headers: headers, body: ByteBuffer(data: body)
            ) { response in
                Answer(status: response.status, body: Data(buffer: response.body))
            }
        }

        func sign(_ body: Data, timestamp: String) throws -> String {
            let signature = try key.signature(for: Data(timestamp.utf8) + body)
            return signature.map { String(format: "%02x", $0) }.joined()
        }

        /// Signs and posts an interaction.
        func send(_ interaction: [String: Any], timestamp: Date = Date()) async throws -> Answer {
            let body = try JSONSerialization.data(withJSONObject: interaction)
            let stamp = String(Int(timestamp.timeIntervalSince1970))
            return try await post(body, signature: try sign(body, timestamp: stamp), timestamp: stamp)
        }
    }
}

/// Builds interactions shaped like Discord's.
enum Interaction {
    nonisolated(unsafe) static var counter = 0

    static func nextID() -> String {
        counter += 1
        return String(1_300_000_000_000_000_000 + counter * 7919 + Int.random(in: 0..<1000))
    }

    struct Person {
        var id: String
        var name: String
        var permissions = "0"
        static let alice = Person(id: "111111111111111111", name: "alice")
        static let bob = Person(id: "222222222222222222", name: "bob")
        static let admin = Person(id: "333333333333333333", name: "root", permissions: "32")
    }

    static func base(
        type: Int, as person: Person, guild: String = "900000000000000001", nsfw: Bool = false, id: String? = nil
    ) -> [String: Any] {
        [
            "id": id ?? nextID(), "application_id": "123456789012345678", "type": type,
            "token": "tok-\(UUID().uuidString)",
            "version": 1, "guild_id": guild, "channel_id": "700000000000000001",
            "channel": ["id": "700000000000000001", "type": 0, "nsfw": nsfw],
            "member": [
                "user": ["id": person.id, "username": person.name, "global_name": person.name.capitalized],
                "permissions": person.permissions, "roles": [], "nick": NSNull(),
            ],
        ]
    }

    static func option(_ name: String, _ value: Any, focused: Bool = false) -> [String: Any] {
        let type: Int =
            switch value {
            case is Bool: 5
            case is Int: 4
            case is Double: 10
            default: 3
            }
        var o: [String: Any] = ["name": name, "type": type, "value": value]
        if focused { o["focused"] = true }
        return o
    }

    static func user(_ name: String, _ person: Person) -> [String: Any] {
        ["name": name, "type": 6, "value": person.id]
    }

    static func sub(_ name: String, _ options: [[String: Any]] = [], group: Bool = false) -> [String: Any] {
        ["name": name, "type": group ? 2 : 1, "options": options]
    }

    /// `/challenge create` with its four options.
    static func createChallenge(
        _ name: String, goal: Double, unit: String = "custom", ends: String = "2099-01-01", as person: Person = .alice
    ) -> [String: Any] {
        command(
            "challenge",
            [
                sub(
                    "create",
                    [option("name", name), option("goal", goal), option("unit", unit), option("ends", ends)])
            ], as: person)
    }

    static func command(
        _ name: String, _ options: [[String: Any]] = [], as person: Person = .alice, nsfw: Bool = false,
        id: String? = nil,
        resolvedUsers: [Person] = []
    ) -> [String: Any] {
        var i = base(type: 2, as: person, nsfw: nsfw, id: id)
        var data: [String: Any] = ["id": "1", "name": name, "type": 1, "options": options]
        if !resolvedUsers.isEmpty {
            var users: [String: Any] = [:]
            for u in resolvedUsers {
                users[u.id] = ["id": u.id, "username": u.name, "global_name": u.name.capitalized]
            }
            data["resolved"] = ["users": users]
        }
        i["data"] = data
        return i
    }

    static func button(
        _ customID: String, as person: Person = .alice, values: [String]? = nil, nsfw: Bool = false
    ) -> [String: Any] {
        var i = base(type: 3, as: person, nsfw: nsfw)
        var data: [String: Any] = ["custom_id": customID, "component_type": values == nil ? 2 : 3]
        if let values { data["values"] = values }
        i["data"] = data
        i["message"] = ["id": "800000000000000001", "channel_id": "700000000000000001", "content": ""]
        return i
    }

    static func autocomplete(
        _ name: String, _ options: [[String: Any]], as person: Person = .alice, nsfw: Bool = false
    ) -> [String: Any] {
        var i = base(type: 4, as: person, nsfw: nsfw)
        i["data"] = ["id": "1", "name": name, "type": 1, "options": options]
        return i
    }

    static func modal(_ customID: String, fields: [String: String], as person: Person = .alice) -> [String: Any] {
        var i = base(type: 5, as: person)
        i["data"] = [
            "custom_id": customID,
            "components": fields.map { key, value in
                ["type": 18, "component": ["type": 4, "custom_id": key, "value": value]] as [String: Any]
            },
        ]
        return i
    }
}

/// Discord's limits, checked on every reply a test sees, and the reply checked against Discord's own schema.
enum DiscordChecks {
    static let validator: OpenAPISchemaValidator = {
        let path = Bundle.module.path(forResource: "discord-openapi", ofType: "json", inDirectory: "Fixtures")!
        return try! OpenAPISchemaValidator(data: try! Data(contentsOf: URL(fileURLWithPath: path)))
    }()

    static func check(_ answer: TestHarness.Client.Answer, sourceLocation: SourceLocation = #_sourceLocation) {
        let json = answer.json
        let schema: String =
            switch answer.type {
            case 1: "PongInteractionCallbackRequest"
            case 4, 5: "CreateMessageInteractionCallbackRequest"
            case 6, 7: "UpdateMessageInteractionCallbackRequest"
            case 8: "ApplicationCommandAutocompleteCallbackRequest"
            case 9: "ModalInteractionCallbackRequest"
            default: "unknown"
            }
        let problems = validator.validate(json, against: schema)
        #expect(problems.isEmpty, "schema \(schema): \(problems.prefix(5))", sourceLocation: sourceLocation)
        guard answer.type == 4 || answer.type == 7 else { return }
        let data = answer.data
        #expect(
            ((data["allowed_mentions"] as? [String: Any])?["parse"] as? [Any])?.isEmpty == true,
            sourceLocation: sourceLocation)
        #expect((data["content"] as? String)?.count ?? 0 <= 2000, sourceLocation: sourceLocation)
        let embeds = answer.embeds
        #expect(embeds.count <= 10, sourceLocation: sourceLocation)
        var total = 0
        for embed in embeds {
            let title = embed["title"] as? String ?? ""
            let description = embed["description"] as? String ?? ""
            #expect(title.count <= 256 && description.count <= 4096, sourceLocation: sourceLocation)
            let fields = embed["fields"] as? [[String: Any]] ?? []
            #expect(fields.count <= 25, sourceLocation: sourceLocation)
            total +=
                title.count + description.count
                + (((embed["footer"] as? [String: Any])?["text"] as? String)?.count ?? 0)
            for field in fields {
                let name = field["name"] as? String ?? ""
                let value = field["value"] as? String ?? ""
                #expect(name.count <= 256 && value.count <= 1024 && !value.isEmpty, sourceLocation: sourceLocation)
                total += name.count + value.count
            }
        }
        #expect(total <= 6000, sourceLocation: sourceLocation)
        let rows = data["components"] as? [[String: Any]] ?? []
        #expect(rows.count <= 5, sourceLocation: sourceLocation)
        var ids = Set<String>()
        for row in rows {
            let components = row["components"] as? [[String: Any]] ?? []
            #expect(components.count <= 5, sourceLocation: sourceLocation)
            for c in components {
                let id = c["custom_id"] as? String ?? ""
                #expect(id.count <= 100 && ids.insert(id).inserted, "custom id \(id)", sourceLocation: sourceLocation)
            }
        }
    }
}
