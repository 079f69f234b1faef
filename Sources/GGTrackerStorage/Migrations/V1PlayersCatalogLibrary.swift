extension Migration {
    static let v1 = Migration(
        "v1: players, communities, catalog, library",
        sqlite: """
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
            """,
        postgres: """
            CREATE TABLE players (
                id TEXT PRIMARY KEY,
                display_name TEXT NOT NULL,
                nickname TEXT,
                avatar_url TEXT,
                bio TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                last_seen_at DOUBLE PRECISION NOT NULL
            );
            CREATE TABLE communities (
                id TEXT PRIMARY KEY,
                age_gate TEXT NOT NULL DEFAULT 'strict',
                announce_channel TEXT,
                created_at DOUBLE PRECISION NOT NULL
            );
            CREATE TABLE memberships (
                community_id TEXT NOT NULL REFERENCES communities(id) ON DELETE CASCADE,
                player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                last_seen_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (community_id, player_id)
            );
            CREATE INDEX memberships_player ON memberships(player_id);
            CREATE TABLE games (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                provider TEXT NOT NULL,
                provider_id TEXT NOT NULL,
                slug TEXT,
                name TEXT NOT NULL,
                keywords TEXT NOT NULL DEFAULT '',
                summary TEXT,
                release_date DOUBLE PRECISION,
                release_year_only BIGINT NOT NULL DEFAULT 0,
                platforms TEXT NOT NULL DEFAULT '[]',
                genres TEXT NOT NULL DEFAULT '[]',
                modes TEXT NOT NULL DEFAULT '[]',
                engines TEXT NOT NULL DEFAULT '[]',
                developers TEXT NOT NULL DEFAULT '[]',
                publishers TEXT NOT NULL DEFAULT '[]',
                critic_rating DOUBLE PRECISION,
                rating_count BIGINT,
                cover_image_id TEXT,
                age_rating TEXT,
                mature BIGINT NOT NULL DEFAULT 0,
                url TEXT,
                game_type TEXT,
                popularity DOUBLE PRECISION NOT NULL DEFAULT 0,
                updated_at DOUBLE PRECISION,
                UNIQUE (provider, provider_id)
            );
            CREATE INDEX games_rating ON games(critic_rating DESC) WHERE critic_rating IS NOT NULL;
            CREATE INDEX games_popularity ON games(popularity DESC);
            CREATE TABLE game_facets (
                kind TEXT NOT NULL,
                name TEXT NOT NULL,
                game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                PRIMARY KEY (kind, name, game_id)
            );
            CREATE TABLE catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE library_entries (
                player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                game_id BIGINT NOT NULL REFERENCES games(id),
                status TEXT NOT NULL,
                hours DOUBLE PRECISION,
                percent BIGINT,
                score BIGINT,
                review TEXT,
                reviewed_at DOUBLE PRECISION,
                favorite BIGINT NOT NULL DEFAULT 0,
                tags TEXT NOT NULL DEFAULT '[]',
                note TEXT,
                added_at DOUBLE PRECISION NOT NULL,
                started_at DOUBLE PRECISION,
                finished_at DOUBLE PRECISION,
                updated_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (player_id, game_id)
            );
            CREATE INDEX library_game ON library_entries(game_id);
            CREATE TABLE wishlist (
                player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                game_id BIGINT NOT NULL REFERENCES games(id),
                added_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (player_id, game_id)
            );
            CREATE TABLE processed_interactions (
                id TEXT PRIMARY KEY,
                response BYTEA NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            );
            CREATE TABLE pending_commands (
                id TEXT PRIMARY KEY,
                command TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """)
}
