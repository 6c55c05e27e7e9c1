package leads

import (
	"maps"
	"net/url"

	"github.com/labstack/echo/v4"
)

// oldParams are the query parameters' snake_case names and the camelCase
// names that replaced them (ADR 059). Deprecated on 2026-11-28: the old
// names are still read for one release and go in the first release after
// that date. The admin app sends only the new ones.
var oldParams = map[string]string{
	"per_page":    "perPage",    // the list, the export and the audit log
	"damage_type": "damageType", // the list and the export
}

// query is the request's query string with every old name (oldParams)
// read as its new one. When both are given, the new name wins.
func query(c echo.Context) url.Values {
	v := maps.Clone(c.QueryParams())
	for old, name := range oldParams {
		if vals, ok := v[old]; ok {
			if _, given := v[name]; !given {
				v[name] = vals
			}
			delete(v, old)
		}
	}
	return v
}
