package server

// publicRoutes is the route table (spec 2.1): the one list of public
// routes. Each group lives beside its loaders; patterns do not overlap.
func publicRoutes() []Route {
	var rs []Route
	for _, g := range [][]Route{homeRoutes(), serviceRoutes(), areaRoutes(), blogRoutes(), infoRoutes(), estimateRoutes(), searchRoutes(), adminRoutes()} {
		rs = append(rs, g...)
	}
	return rs
}

func homeRoutes() []Route {
	return []Route{
		{Pattern: "/", Page: "home", Priority: "high", ChangeFreq: "weekly", InSitemap: true, Indexable: true, Load: loadHome},
	}
}
