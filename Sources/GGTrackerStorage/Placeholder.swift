enum PlaceholderGGTrackerStorage {}
