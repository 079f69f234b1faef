extension Migration {
    /// How long a game takes to beat, in seconds (IGDB's `game_time_to_beats`): rushed, normal, complete.
    static let v11 = Migration(
        "v11: time to beat",
        sqlite: """
            ALTER TABLE games ADD COLUMN ttb_hastily INTEGER;
            ALTER TABLE games ADD COLUMN ttb_normally INTEGER;
            ALTER TABLE games ADD COLUMN ttb_completely INTEGER;
            """,
        postgres: """
            ALTER TABLE games ADD COLUMN ttb_hastily BIGINT, ADD COLUMN ttb_normally BIGINT,
                ADD COLUMN ttb_completely BIGINT
            """)
}
