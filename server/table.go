package server

// publicRoutes is the route table (spec 2.1). Order matters only for
// display; patterns do not overlap.
func publicRoutes() []Route {
	return []Route{
		// Home
		{Pattern: "/", Page: "home", Priority: "high", ChangeFreq: "weekly", InSitemap: true, Indexable: true, Load: loadHome},
	}
}
