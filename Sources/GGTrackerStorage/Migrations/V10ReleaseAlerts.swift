extension Migration {
    /// Release alerts sent, one row per server, game and release date: the row is claimed before the alert is
    /// posted, so every process sharing the database sends it once.
    static let v10 = Migration(
        "v10: release alerts",
        sqlite: """
            CREATE TABLE release_alerts (
                community_id TEXT NOT NULL,
                game_id INTEGER NOT NULL,
                release_date DOUBLE NOT NULL,
                sent_at DOUBLE NOT NULL,
                PRIMARY KEY (community_id, game_id, release_date)
            ) WITHOUT ROWID;
            """,
        postgres: """
            CREATE TABLE release_alerts (
                community_id TEXT NOT NULL,
                game_id BIGINT NOT NULL,
                release_date DOUBLE PRECISION NOT NULL,
                sent_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (community_id, game_id, release_date)
            )
            """)
}
