package ssr

import (
	"fmt"
	"strings"
)

// reactServerFile is the React 18 legacy server build that react-dom/server is
// aliased to. It renders with renderToString only and needs no polyfills.
const reactServerFile = "react-dom/cjs/react-dom-server-legacy.browser.production.min.js"

// accumulatorPatches rewrite renderToString's `g += chunk` string accumulator
// into an array joined once at the end. goja has no rope strings, so every +=
// copies the whole output and a render becomes O(n^2): measured 190-230 ms and
// ~280 MiB allocated per home render unpatched, ~40 ms and 8 MiB patched
// (see ../shared/docs/ssr-facts.md). Each pattern must match exactly once, so a
// React upgrade that changes the build text fails the build instead of silently
// undoing the patch.
var accumulatorPatches = []struct{ from, to string }{
	{
		from: `g="",h={push:function(a){null!==a&&(g+=a);return!0}`,
		to:   `g=[],h={push:function(a){null!==a&&g.push(a);return!0}`,
	},
	{
		from: `if(!k)throw Error(l(426));return g}`,
		to:   `if(!k)throw Error(l(426));return g.join("")}`,
	},
}

// PatchReactServer applies the accumulator rewrite to the source of
// reactServerFile. It returns an error naming the pattern that did not match
// exactly once.
func PatchReactServer(src string) (string, error) {
	for _, p := range accumulatorPatches {
		if n := strings.Count(src, p.from); n != 1 {
			return "", fmt.Errorf("ssr: renderToString accumulator patch: pattern %q found %d times in %s, want exactly 1 (React build changed? update ssr/patch.go)", p.from, n, reactServerFile)
		}
		src = strings.Replace(src, p.from, p.to, 1)
	}
	return src, nil
}
