extension Migration {
    static let v3 = Migration(
        "v3: provider lookups",
        sqlite: """
            CREATE TABLE provider_lookups (
                provider TEXT NOT NULL,
                query TEXT NOT NULL,
                looked_up_at DOUBLE NOT NULL,
                PRIMARY KEY (provider, query)
            ) WITHOUT ROWID;
            """,
        postgres: """
            CREATE TABLE provider_lookups (
                provider TEXT NOT NULL,
                query TEXT NOT NULL,
                looked_up_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (provider, query)
            )
            """)
}
