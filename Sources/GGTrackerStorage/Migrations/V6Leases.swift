extension Migration {
    /// Work that must run in one process at a time however many share the database (a catalog
    /// refresh): the holder renews its lease while it works; a lease not renewed in time expires.
    static let v6 = Migration(
        "v6: leases",
        sqlite: """
            CREATE TABLE leases (
                name TEXT PRIMARY KEY NOT NULL,
                holder TEXT NOT NULL,
                expires_at DOUBLE NOT NULL
            );
            """,
        postgres: """
            CREATE TABLE leases (
                name TEXT PRIMARY KEY,
                holder TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """)
}
