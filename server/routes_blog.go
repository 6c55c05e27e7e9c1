package server

// blogRoutes is filled in by the blog pages work (issue 3).
func blogRoutes() []Route { return nil }
