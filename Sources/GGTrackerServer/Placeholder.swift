enum PlaceholderGGTrackerServer {}
