package server

// infoRoutes is filled in by the info pages work (issue 3).
func infoRoutes() []Route { return nil }
