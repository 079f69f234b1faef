extension Migration {
    /// Calls to a provider counted per second across every process sharing the database, so replicas
    /// together keep to the provider's rate limit.
    static let v7 = Migration(
        "v7: request budgets",
        sqlite: """
            CREATE TABLE request_budget (
                name TEXT NOT NULL,
                second INTEGER NOT NULL,
                used INTEGER NOT NULL,
                PRIMARY KEY (name, second)
            ) WITHOUT ROWID;
            """,
        postgres: """
            CREATE TABLE request_budget (
                name TEXT NOT NULL,
                second BIGINT NOT NULL,
                used BIGINT NOT NULL,
                PRIMARY KEY (name, second)
            )
            """)
}
