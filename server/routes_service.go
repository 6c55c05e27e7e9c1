package server

// serviceRoutes is filled in by the service pages work (issue 3).
func serviceRoutes() []Route { return nil }
