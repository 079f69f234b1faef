enum PlaceholderGGTrackerCore {}
