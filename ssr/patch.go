package ssr

import (
	"fmt"
	"regexp"
	"strings"
)

// reactServerFile is the React 18 legacy server build that react-dom/server is
// aliased to. It renders with renderToString only and needs no polyfills.
const reactServerFile = "react-dom/cjs/react-dom-server-legacy.browser.production.min.js"

// accumulatorPatches replace renderToString's `g += chunk` string
// accumulator with the Go sink (sink.go). goja has no rope strings, so
// every += copied the whole output and a render was O(n^2): measured
// 190-230 ms and ~280 MiB allocated per home render unpatched, ~40 ms and
// 8 MiB with an array joined at the end (see ../shared/docs/ssr-facts.md).
// The sink goes further: each chunk is appended to a Go buffer as UTF-8 by
// one native call, with no JavaScript array (an append to a goja array
// looks the index up on Array.prototype and Object.prototype by name), no
// join and no conversion of the joined UTF-16 page for Go. Each pattern
// must match exactly once, so a React upgrade that changes the build text
// fails the build instead of silently undoing the patch.
var accumulatorPatches = []struct{ from, to string }{
	{
		from: `g="",h={push:function(a){null!==a&&(g+=a);return!0}`,
		to:   `g=` + sinkGlobal + `.begin(b),h={push:` + sinkGlobal + `.push`,
	},
	{
		from: `if(!k)throw Error(l(426));return g}`,
		to:   `if(!k)throw Error(l(426));return ` + sinkGlobal + `.done(g)}`,
	},
}

// segmentPatches keep each segment's chunk list in Go (segment.go): a
// page's ~20,000 chunks are converted into a UTF-8 buffer as React pushes
// them, instead of growing a goja array (each push boxing the new length)
// that is then walked to flush it. The flush of a segment (Z) copies runs
// of the buffer with flushTo instead of pushing chunk by chunk; f becomes
// true when the last run is written, as the last push made it.
// segmentChunkUses is how often the build names chunks: every use is a
// push, a length or the flush, and a React release that uses the list in
// a new way fails the build.
var segmentPatches = []struct{ from, to string }{
	{
		from: `parentFlushed:!1,chunks:[],children:[]`,
		to:   `parentFlushed:!1,chunks:` + sinkGlobal + `.segment(),children:[]`,
	},
	{
		from: `c=c.children;for(var g=0;g<c.length;g++){for(f=c[g];e<f.index;e++)b.push(d[e]);f=Nb(a,b,f)}for(;e<d.length-1;e++)b.push(d[e]);e<d.length&&(f=b.push(d[e]));return f;`,
		to:   `c=c.children;for(var g=0;g<c.length;g++){f=c[g];e=d.flushTo(b,e,f.index);f=Nb(a,b,f)}e<d.length&&(d.flushTo(b,e,d.length),f=!0);return f;`,
	},
}

const segmentChunkUses = 11

// pushAttribute (x) decides from the prop's name alone whether it is the
// style, a prop React never writes (an event handler, defaultValue...), a
// known property with its own rules (from the table t), or an attribute
// written as it is (and whether a boolean value is kept, for data- and
// aria-): a switch, two string indexings and a length (each a map write
// in goja, which wraps the primitive string), hasOwnProperty, and the
// attribute name check. The patched x looks the decision up by name in a
// null-prototype object and works it out ($ssrAttrOf, the same steps in
// the same order) only for a name it has not seen; what depends on the
// value is unchanged. The table grows with the names the pages use, like
// React's own cache of checked attribute names. The whole function is
// matched, with the value switch kept as it is.
var (
	attrHead = `function x(a,b,c,d){switch(c){case "style":ta(a,b,d);return;case "defaultValue":case "defaultChecked":case "innerHTML":case "suppressContentEditableWarning":case "suppressHydrationWarning":return}if(!(2<c.length)||"o"!==c[0]&&"O"!==c[0]||"n"!==c[1]&&"N"!==c[1])if(b=t.hasOwnProperty(c)?t[c]:null,null!==b){switch(typeof d){case "function":case "symbol":return;case "boolean":if(!b.acceptsBooleans)return}c=b.attributeName;`
	// (React's build has a line break inside this switch.)
	attrValueSwitch = `switch(b.type){case 3:d&&a.push(" ",c,'=""');break;case 4:!0===d?a.push(" ",c,'=""'):` + "\n" +
		`!1!==d&&a.push(" ",c,'="',v(d),'"');break;case 5:isNaN(d)||a.push(" ",c,'="',v(d),'"');break;case 6:!isNaN(d)&&1<=d&&a.push(" ",c,'="',v(d),'"');break;default:b.sanitizeURL&&(d=""+d),a.push(" ",c,'="',v(d),'"')}`
	attrTail = `}else if(ja(c)){switch(typeof d){case "function":case "symbol":return;case "boolean":if(b=c.toLowerCase().slice(0,5),"data-"!==b&&"aria-"!==b)return}a.push(" ",c,'="',v(d),'"')}}`

	attributePatch = struct{ from, to string }{
		from: attrHead + attrValueSwitch + attrTail,
		to: `function $ssrAttrOf(c){switch(c){case "style":return 1;case "defaultValue":case "defaultChecked":case "innerHTML":case "suppressContentEditableWarning":case "suppressHydrationWarning":return 0}` +
			`if(!(2<c.length)||"o"!==c[0]&&"O"!==c[0]||"n"!==c[1]&&"N"!==c[1]){var b=t.hasOwnProperty(c)?t[c]:null;if(null!==b)return b;` +
			`if(ja(c))return b=c.toLowerCase().slice(0,5),"data-"===b||"aria-"===b?3:2}return 0}` +
			`var $ssrAttrs=Object.create(null);` +
			`function x(a,b,c,d){var k="__proto__"===c?$ssrAttrOf(c):$ssrAttrs[c];void 0===k&&(k=$ssrAttrs[c]=$ssrAttrOf(c));` +
			`if(1===k){ta(a,b,d);return}if(0===k)return;` +
			`if(2===k||3===k){switch(typeof d){case "function":case "symbol":return;case "boolean":if(3!==k)return}a.push(" ",c,'="',v(d),'"');return}` +
			`b=k;switch(typeof d){case "function":case "symbol":return;case "boolean":if(!b.acceptsBooleans)return}c=b.attributeName;` +
			attrValueSwitch + `}`,
	}
)

// escapePatch replaces React's escapeTextForBrowser (every text node and
// attribute value goes through it) with the native escape of escape.go,
// which returns a string with nothing to escape as it is. In goja React's
// version costs a regular expression exec per call. The whole function is
// matched, so a React release that escapes differently fails the build.
var escapePatch = struct{ from, to string }{
	from: `function v(a){if("boolean"===typeof a||"number"===typeof a)return""+a;a=""+a;var b=na.exec(a);if(b){var c="",d,f=0;for(d=b.index;d<a.length;d++){switch(a.charCodeAt(d)){case 34:b="&quot;";break;case 38:b="&amp;";break;case 39:b="&#x27;";break;case 60:b="&lt;";break;case 62:b="&gt;";break;default:continue}f!==d&&(c+=a.substring(f,d));f=d+1;c+=b}a=f!==d?c+a.substring(f,d):c}return a}`,
	to:   `var v=` + escapeGlobal + `;`,
}

// treeContextPatches make the useId tree context of a child in an array
// lazy. React's renderer gives each child of every array a new context
// (gb: two Math.clz32 calls, bit arithmetic and an object), which only
// useId and a suspended task ever read. The patched loop (Ib) keeps one
// mutable {$l,p,n,i} per array instead, its index updated per child, and
// every reader resolves a context with $ssrTC, which computes exactly
// what gb would have. A context that outlives the loop (a suspended
// task's) is resolved when the task is made, while the loop still points
// at the child. treeContextUses is how often the build names treeContext,
// so a React release that reads it somewhere new fails the build.
var treeContextPatches = []struct{ from, to string }{
	{
		from: `function Ib(a,b,c){for(var d=c.length,f=0;f<d;f++){var e=b.treeContext;b.treeContext=gb(e,d,f);try{Hb(a,b,c[f])}finally{b.treeContext=e}}}`,
		to: `function $ssrTC(a){return 1===a.$l?gb($ssrTC(a.p),a.n,a.i):a}` +
			`function Ib(a,b,c){for(var d=c.length,e=b.treeContext,g={$l:1,p:e,n:d,i:0},f=0;f<d;f++){g.i=f;b.treeContext=g;try{Hb(a,b,c[f])}finally{b.treeContext=e}}}`,
	},
	{from: `d=b.treeContext;b.treeContext=gb(d,1,0);`, to: `d=b.treeContext;b.treeContext=gb($ssrTC(d),1,0);`},
	{from: `c=b.treeContext;b.treeContext=gb(c,1,0);`, to: `c=b.treeContext;b.treeContext=gb($ssrTC(c),1,0);`},
	{from: `b=Bb(a,e,c,k,g,b.legacyContext,b.context,b.treeContext);`, to: `b=Bb(a,e,c,k,g,b.legacyContext,b.context,$ssrTC(b.treeContext));`},
	{from: `b.legacyContext,b.context,b.treeContext).ping;`, to: `b.legacyContext,b.context,$ssrTC(b.treeContext)).ping;`},
	{from: `useId:function(){var a=ob.treeContext;`, to: `useId:function(){var a=$ssrTC(ob.treeContext);`},
}

const treeContextUses = 13

// ownPropLoop is React's `for(k in o)if(p.call(o,k)…` (p is
// Object.prototype.hasOwnProperty): a loop over an object's own
// properties. goja's for-in walks the prototype chain and tracks visited
// names; Object.keys returns the same own enumerable keys in the same
// order, much faster. ownPropLoops is how many the React build has.
var ownPropLoop = regexp.MustCompile(`for\(([a-z]) in ([a-z])\)if\(p\.call\(([a-z]),([a-z])\)`)

const ownPropLoops = 8

// PatchReactServer applies the accumulator rewrite and the own-property
// loop rewrite to the source of reactServerFile. It returns an error
// naming the pattern that did not match as often as expected.
func PatchReactServer(src string) (string, error) {
	for _, p := range accumulatorPatches {
		if n := strings.Count(src, p.from); n != 1 {
			return "", fmt.Errorf("ssr: renderToString accumulator patch: pattern %q found %d times in %s, want exactly 1 (React build changed? update ssr/patch.go)", p.from, n, reactServerFile)
		}
		src = strings.Replace(src, p.from, p.to, 1)
	}
	if n := strings.Count(src, "treeContext"); n != treeContextUses {
		return "", fmt.Errorf("ssr: tree context patch: treeContext named %d times in %s, want %d (React build changed? update ssr/patch.go)", n, reactServerFile, treeContextUses)
	}
	if n := strings.Count(src, "chunks"); n != segmentChunkUses {
		return "", fmt.Errorf("ssr: segment patch: chunks named %d times in %s, want %d (React build changed? update ssr/patch.go)", n, reactServerFile, segmentChunkUses)
	}
	patches := make([]struct{ from, to string }, 0, len(segmentPatches)+2+len(treeContextPatches))
	patches = append(append(append(patches, segmentPatches...), escapePatch, attributePatch), treeContextPatches...)
	for _, p := range patches {
		if n := strings.Count(src, p.from); n != 1 {
			return "", fmt.Errorf("ssr: renderToString patch: pattern %q found %d times in %s, want exactly 1 (React build changed? update ssr/patch.go)", p.from, n, reactServerFile)
		}
		src = strings.Replace(src, p.from, p.to, 1)
	}
	n := 0
	src = ownPropLoop.ReplaceAllStringFunc(src, func(m string) string {
		g := ownPropLoop.FindStringSubmatch(m)
		if g[1] != g[4] || g[2] != g[3] {
			return m
		}
		n++
		k, o := g[1], g[2]
		return fmt.Sprintf("for(let $i=0,$k=Object.keys(%s);$i<$k.length&&((%s=$k[$i]),!0);$i++)if(!0", o, k)
	})
	if n != ownPropLoops {
		return "", fmt.Errorf("ssr: own-property loop patch matched %d times in %s, want %d (React build changed? update ssr/patch.go)", n, reactServerFile, ownPropLoops)
	}
	return src, nil
}

// jsxRuntimeFile is the automatic JSX runtime every component calls.
const jsxRuntimeFile = "react/cjs/react-jsx-runtime.production.min.js"

// jsxFastPath lets jsx() use the props object the compiled JSX just built
// instead of copying it key by key (a for-in, the hottest function of a
// render in goja) when there is nothing to take out or fill in: no key or
// ref among the props and no defaultProps. The object is always a fresh
// literal made at the call site, so sharing it is safe. A host element's
// type is a string, which has no defaultProps: asking would make goja wrap
// the string in an object (a map write) and search two prototypes.
var jsxFastPath = struct{ from, to string }{
	from: `function q(c,a,g){var b,d={},e=null,h=null;`,
	to: `function q(c,a,g){if(void 0===a.key&&void 0===a.ref&&void 0===a.__self&&void 0===a.__source&&("string"===typeof c||!(c&&c.defaultProps)))` +
		`return{$$typeof:k,type:c,key:void 0!==g?""+g:null,ref:null,props:a,_owner:n.current};var b,d={},e=null,h=null;`,
}

// PatchJSXRuntime applies jsxFastPath to the source of jsxRuntimeFile.
func PatchJSXRuntime(src string) (string, error) {
	if n := strings.Count(src, jsxFastPath.from); n != 1 {
		return "", fmt.Errorf("ssr: jsx fast path: pattern %q found %d times in %s, want exactly 1 (React build changed? update ssr/patch.go)", jsxFastPath.from, n, jsxRuntimeFile)
	}
	return strings.Replace(src, jsxFastPath.from, jsxFastPath.to, 1), nil
}
