import Foundation
import GRDB

/// The SQLite schema, one migration a step (`PostgresMigrations` expresses the same steps for PostgreSQL).
extension AppDatabase {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: players, communities, catalog, library") { db in
            try db.execute(
                sql: """
                    CREATE TABLE players (
                        id TEXT PRIMARY KEY NOT NULL,
                        display_name TEXT NOT NULL,
                        nickname TEXT,
                        avatar_url TEXT,
                        bio TEXT,
                        created_at DOUBLE NOT NULL,
                        last_seen_at DOUBLE NOT NULL
                    );
                    CREATE TABLE communities (
                        id TEXT PRIMARY KEY NOT NULL,
                        age_gate TEXT NOT NULL DEFAULT 'strict',
                        announce_channel TEXT,
                        created_at DOUBLE NOT NULL
                    );
                    CREATE TABLE memberships (
                        community_id TEXT NOT NULL REFERENCES communities(id) ON DELETE CASCADE,
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        last_seen_at DOUBLE NOT NULL,
                        PRIMARY KEY (community_id, player_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX memberships_player ON memberships(player_id);

                    CREATE TABLE games (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        provider TEXT NOT NULL,
                        provider_id TEXT NOT NULL,
                        slug TEXT,
                        name TEXT NOT NULL,
                        keywords TEXT NOT NULL DEFAULT '',
                        summary TEXT,
                        release_date DOUBLE,
                        release_year_only BOOLEAN NOT NULL DEFAULT 0,
                        platforms TEXT NOT NULL DEFAULT '[]',
                        genres TEXT NOT NULL DEFAULT '[]',
                        modes TEXT NOT NULL DEFAULT '[]',
                        engines TEXT NOT NULL DEFAULT '[]',
                        developers TEXT NOT NULL DEFAULT '[]',
                        publishers TEXT NOT NULL DEFAULT '[]',
                        critic_rating DOUBLE,
                        rating_count INTEGER,
                        cover_image_id TEXT,
                        age_rating TEXT,
                        mature BOOLEAN NOT NULL DEFAULT 0,
                        url TEXT,
                        game_type TEXT,
                        popularity DOUBLE NOT NULL DEFAULT 0,
                        updated_at DOUBLE,
                        UNIQUE (provider, provider_id)
                    );
                    CREATE INDEX games_rating ON games(critic_rating DESC) WHERE critic_rating IS NOT NULL;
                    CREATE INDEX games_popularity ON games(popularity DESC);
                    CREATE TABLE game_facets (
                        kind TEXT NOT NULL,
                        name TEXT NOT NULL COLLATE NOCASE,
                        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                        PRIMARY KEY (kind, name, game_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX game_facets_game ON game_facets(game_id);
                    CREATE VIRTUAL TABLE games_fts USING fts5(
                        name, keywords, content='games', content_rowid='id',
                        tokenize='unicode61 remove_diacritics 2', prefix='2 3'
                    );
                    CREATE TRIGGER games_ai AFTER INSERT ON games BEGIN
                        INSERT INTO games_fts(rowid, name, keywords) VALUES (new.id, new.name, new.keywords);
                    END;
                    CREATE TRIGGER games_ad AFTER DELETE ON games BEGIN
                        INSERT INTO games_fts(games_fts, rowid, name, keywords) VALUES ('delete', old.id, old.name, old.keywords);
                    END;
                    CREATE TRIGGER games_au AFTER UPDATE OF name, keywords ON games BEGIN
                        INSERT INTO games_fts(games_fts, rowid, name, keywords) VALUES ('delete', old.id, old.name, old.keywords);
                        INSERT INTO games_fts(rowid, name, keywords) VALUES (new.id, new.name, new.keywords);
                    END;
                    CREATE VIRTUAL TABLE games_vocab USING fts5vocab(games_fts, 'col');
                    CREATE TABLE catalog_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);

                    CREATE TABLE library_entries (
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        game_id INTEGER NOT NULL REFERENCES games(id),
                        status TEXT NOT NULL,
                        hours DOUBLE,
                        percent INTEGER,
                        score INTEGER,
                        review TEXT,
                        reviewed_at DOUBLE,
                        favorite BOOLEAN NOT NULL DEFAULT 0,
                        tags TEXT NOT NULL DEFAULT '[]',
                        note TEXT,
                        added_at DOUBLE NOT NULL,
                        started_at DOUBLE,
                        finished_at DOUBLE,
                        updated_at DOUBLE NOT NULL,
                        PRIMARY KEY (player_id, game_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX library_game ON library_entries(game_id);
                    CREATE TABLE wishlist (
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        game_id INTEGER NOT NULL REFERENCES games(id),
                        added_at DOUBLE NOT NULL,
                        PRIMARY KEY (player_id, game_id)
                    ) WITHOUT ROWID;

                    CREATE TABLE processed_interactions (
                        id TEXT PRIMARY KEY NOT NULL,
                        response BLOB NOT NULL,
                        created_at DOUBLE NOT NULL
                    );
                    CREATE TABLE pending_commands (
                        id TEXT PRIMARY KEY NOT NULL,
                        command TEXT NOT NULL,
                        created_at DOUBLE NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2: events, friends, challenges, share links") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        community_id TEXT NOT NULL,
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        game_id INTEGER REFERENCES games(id),
                        amount DOUBLE,
                        detail TEXT,
                        created_at DOUBLE NOT NULL
                    );
                    CREATE INDEX events_community ON events(community_id, created_at);
                    CREATE INDEX events_player ON events(player_id, kind, created_at);
                    CREATE TABLE friends (
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        friend_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        created_at DOUBLE NOT NULL,
                        PRIMARY KEY (player_id, friend_id)
                    ) WITHOUT ROWID;
                    CREATE TABLE challenges (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        community_id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        name_key TEXT NOT NULL,
                        goal DOUBLE NOT NULL,
                        unit TEXT NOT NULL,
                        starts_at DOUBLE NOT NULL,
                        ends_at DOUBLE NOT NULL,
                        created_by TEXT NOT NULL,
                        created_at DOUBLE NOT NULL,
                        UNIQUE (community_id, name_key)
                    );
                    CREATE TABLE challenge_participants (
                        challenge_id INTEGER NOT NULL REFERENCES challenges(id) ON DELETE CASCADE,
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        joined_at DOUBLE NOT NULL,
                        custom_progress DOUBLE NOT NULL DEFAULT 0,
                        medal_at DOUBLE,
                        PRIMARY KEY (challenge_id, player_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX challenge_participants_player ON challenge_participants(player_id);
                    CREATE TABLE share_tokens (
                        token TEXT PRIMARY KEY NOT NULL,
                        player_id TEXT NOT NULL UNIQUE REFERENCES players(id) ON DELETE CASCADE,
                        created_at DOUBLE NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v3: provider lookups") { db in
            try db.execute(
                sql: """
                    CREATE TABLE provider_lookups (
                        provider TEXT NOT NULL,
                        query TEXT NOT NULL,
                        looked_up_at DOUBLE NOT NULL,
                        PRIMARY KEY (provider, query)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v4: delivery claims") { db in
            // A delivery is claimed inside the transaction of the change it causes; the answer is stored
            // afterwards, so `response` is empty while a claimed delivery is being answered.
            try db.execute(
                sql: """
                    CREATE TABLE processed_interactions_v4 (
                        id TEXT PRIMARY KEY NOT NULL,
                        attempt TEXT,
                        response BLOB,
                        created_at DOUBLE NOT NULL
                    );
                    INSERT INTO processed_interactions_v4 (id, response, created_at)
                        SELECT id, response, created_at FROM processed_interactions;
                    DROP TABLE processed_interactions;
                    ALTER TABLE processed_interactions_v4 RENAME TO processed_interactions;
                    CREATE INDEX processed_interactions_created ON processed_interactions(created_at);
                    CREATE INDEX pending_commands_created ON pending_commands(created_at);
                    """)
        }
        migrator.registerMigration("v5: names searched in memory, facets by number") { db in
            // Searches go through the in-memory name index; the full-text table only cost imports time and disk.
            // A game's facets are pairs of numbers, which load several times faster than (kind, name, game) rows.
            try db.execute(
                sql: """
                    DROP TRIGGER games_ai;
                    DROP TRIGGER games_ad;
                    DROP TRIGGER games_au;
                    DROP TABLE games_vocab;
                    DROP TABLE games_fts;
                    CREATE TABLE facets (
                        id INTEGER PRIMARY KEY,
                        kind TEXT NOT NULL,
                        name TEXT NOT NULL COLLATE NOCASE,
                        UNIQUE (kind, name)
                    );
                    INSERT INTO facets (kind, name) SELECT DISTINCT kind, name FROM game_facets ORDER BY kind, name;
                    CREATE TABLE game_facets_v5 (
                        facet_id INTEGER NOT NULL REFERENCES facets(id),
                        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                        PRIMARY KEY (facet_id, game_id)
                    ) WITHOUT ROWID;
                    INSERT OR IGNORE INTO game_facets_v5 (facet_id, game_id)
                        SELECT f.id, gf.game_id FROM game_facets gf JOIN facets f ON f.kind = gf.kind AND f.name = gf.name;
                    DROP TABLE game_facets;
                    ALTER TABLE game_facets_v5 RENAME TO game_facets;
                    CREATE INDEX game_facets_game ON game_facets(game_id);
                    """)
        }
        migrator.registerMigration("v6: leases") { db in
            // Work that must run in one process at a time however many share the database (a catalog
            // refresh): the holder renews its lease while it works; a lease not renewed in time expires.
            try db.execute(
                sql: """
                    CREATE TABLE leases (
                        name TEXT PRIMARY KEY NOT NULL,
                        holder TEXT NOT NULL,
                        expires_at DOUBLE NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v7: request budgets") { db in
            // Calls to a provider counted per second across every process sharing the database, so replicas
            // together keep to the provider's rate limit.
            try db.execute(
                sql: """
                    CREATE TABLE request_budget (
                        name TEXT NOT NULL,
                        second INTEGER NOT NULL,
                        used INTEGER NOT NULL,
                        PRIMARY KEY (name, second)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v8: themes") { db in
            try db.execute(sql: "ALTER TABLE games ADD COLUMN themes TEXT NOT NULL DEFAULT '[]'")
        }
        return migrator
    }
}
