extension Migration {
    static let v8 = Migration(
        "v8: themes",
        both: "ALTER TABLE games ADD COLUMN themes TEXT NOT NULL DEFAULT '[]'")
}
