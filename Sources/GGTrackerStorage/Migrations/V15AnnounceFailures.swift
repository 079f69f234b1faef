extension Migration {
    /// Why the last post to a community's announce channel did not go through, and when: shown to its admins in
    /// `/admin settings` until a post there goes through again.
    static let v15 = Migration(
        "v15: announce failures",
        sqlite: """
            ALTER TABLE communities ADD COLUMN announce_failure TEXT;
            ALTER TABLE communities ADD COLUMN announce_failed_at DOUBLE;
            """,
        postgres: """
            ALTER TABLE communities ADD COLUMN announce_failure TEXT;
            ALTER TABLE communities ADD COLUMN announce_failed_at DOUBLE PRECISION;
            """)
}
