extension Migration {
    /// A delivery is claimed inside the transaction of the change it causes; the answer is stored
    /// afterwards, so `response` is empty while a claimed delivery is being answered.
    static let v4 = Migration(
        "v4: delivery claims",
        sqlite: """
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
            """,
        postgres: """
            ALTER TABLE processed_interactions ADD COLUMN attempt TEXT;
            ALTER TABLE processed_interactions ALTER COLUMN response DROP NOT NULL;
            CREATE INDEX processed_interactions_created ON processed_interactions(created_at);
            CREATE INDEX pending_commands_created ON pending_commands(created_at)
            """)
}
