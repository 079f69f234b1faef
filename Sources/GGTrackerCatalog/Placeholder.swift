enum PlaceholderGGTrackerCatalog {}
