package site

// publicRoutes is the route table (spec 2.1): the one list of routes.
// Each group lives beside its loaders. The first matching entry wins, so a
// fixed page (e.g. /areas/cobb/marietta) is listed before the generic
// pattern it refines, and that pattern's Expand leaves it out.
func publicRoutes() []Route {
	var rs []Route
	for _, g := range [][]Route{homeRoutes(), serviceRoutes(), areaRoutes(), blogRoutes(), infoRoutes(), jobRoutes(), estimateRoutes(), searchRoutes(), adminRoutes()} {
		rs = append(rs, g...)
	}
	return rs
}

func homeRoutes() []Route {
	return []Route{
		{Pattern: "/", Page: "home", Priority: "high", ChangeFreq: "weekly", InSitemap: true, Indexable: true, Load: loadHome},
	}
}
