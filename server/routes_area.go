package server

// areaRoutes is filled in by the area pages work (issue 3).
func areaRoutes() []Route { return nil }
