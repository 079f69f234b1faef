extension Migration {
    /// Steam's app ids of catalog games (IGDB's external ids), by the game's provider reference so they survive a
    /// reload of the catalog.
    static let v14 = Migration(
        "v14: steam app ids",
        sqlite: """
            CREATE TABLE steam_apps (
                app_id INTEGER PRIMARY KEY NOT NULL,
                provider TEXT NOT NULL,
                provider_id TEXT NOT NULL
            );
            """,
        postgres: """
            CREATE TABLE steam_apps (
                app_id BIGINT PRIMARY KEY NOT NULL,
                provider TEXT NOT NULL,
                provider_id TEXT NOT NULL
            );
            """)
}
