extension Migration {
    /// One-download links to a player's export: claimed by the download that uses them, valid for a while.
    static let v13 = Migration(
        "v13: export links",
        sqlite: """
            CREATE TABLE export_links (
                token TEXT PRIMARY KEY NOT NULL,
                player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                format TEXT NOT NULL,
                created_at DOUBLE NOT NULL,
                expires_at DOUBLE NOT NULL,
                used_at DOUBLE
            );
            """,
        postgres: """
            CREATE TABLE export_links (
                token TEXT PRIMARY KEY NOT NULL,
                player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                format TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                used_at DOUBLE PRECISION
            );
            """)
}
