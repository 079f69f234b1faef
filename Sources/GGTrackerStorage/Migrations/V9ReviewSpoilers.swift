extension Migration {
    /// A review marked as a spoiler is shown hidden until clicked.
    static let v9 = Migration(
        "v9: review spoilers",
        sqlite: "ALTER TABLE library_entries ADD COLUMN review_spoiler BOOLEAN NOT NULL DEFAULT 0",
        postgres: "ALTER TABLE library_entries ADD COLUMN review_spoiler BIGINT NOT NULL DEFAULT 0")
}
