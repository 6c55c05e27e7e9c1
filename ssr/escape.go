package ssr

import (
	"reflect"
	"strings"

	"github.com/dop251/goja"
)

// escapeGlobal is the native escapeTextForBrowser the patched React build
// calls (escapePatch in patch.go).
const escapeGlobal = "__ssrEscape"

// htmlEscaper is escapeTextForBrowser in Go: React's
//
//	function v(a){if("boolean"===typeof a||"number"===typeof a)return""+a;
//	a=""+a; ...replace " & ' < > with &quot; &amp; &#x27; &lt; &gt;...}
//
// A string with nothing to escape (nearly every one) is returned as it is,
// without a copy. goja runs React's version as a regular expression exec
// and a loop of substring concatenations.
type htmlEscaper struct {
	rt *goja.Runtime
	// concat is `a => "" + a`, for values that are not strings, numbers or
	// booleans (objects, undefined, symbols), so they convert (or throw)
	// exactly as React's `"" + a` does.
	concat goja.Callable
}

func installEscape(rt *goja.Runtime, concat goja.Callable) error {
	e := &htmlEscaper{rt: rt, concat: concat}
	return rt.Set(escapeGlobal, e.escape)
}

func (e *htmlEscaper) escape(call goja.FunctionCall) goja.Value {
	a := call.Argument(0)
	if reflect.TypeOf(a) == asciiStringType {
		s := a.String()
		i := indexHTMLSpecial(s)
		if i < 0 {
			return a
		}
		return e.rt.ToValue(escapeASCIIFrom(s, i))
	}
	str, ok := a.(goja.String)
	if !ok {
		switch a.ExportType() {
		case reflectTypeInt, reflectTypeFloat, reflectTypeBool:
			// "" + a for a number or boolean: nothing to escape.
			return e.rt.ToValue(a.String())
		}
		v, err := e.concat(goja.Undefined(), a)
		if err != nil {
			panic(err)
		}
		if str, ok = v.(goja.String); !ok {
			panic(e.rt.NewTypeError("ssr: escape: \"\" + value is not a string"))
		}
		if reflect.TypeOf(v) == asciiStringType {
			s := v.String()
			if i := indexHTMLSpecial(s); i >= 0 {
				return e.rt.ToValue(escapeASCIIFrom(s, i))
			}
			return v
		}
	}
	return escapeUTF16(str)
}

var (
	reflectTypeInt   = reflect.TypeOf(int64(0))
	reflectTypeFloat = reflect.TypeOf(float64(0))
	reflectTypeBool  = reflect.TypeOf(false)
)

// htmlSpecial marks the bytes React escapes.
var htmlSpecial = [256]bool{'"': true, '&': true, '\'': true, '<': true, '>': true}

func indexHTMLSpecial(s string) int {
	for i := 0; i < len(s); i++ {
		if htmlSpecial[s[i]] {
			return i
		}
	}
	return -1
}

func htmlEntity(c byte) string {
	switch c {
	case '"':
		return "&quot;"
	case '&':
		return "&amp;"
	case '\'':
		return "&#x27;"
	case '<':
		return "&lt;"
	default:
		return "&gt;"
	}
}

// escapeASCIIFrom escapes s, whose first special byte is at i.
func escapeASCIIFrom(s string, i int) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if htmlSpecial[c] {
			b.WriteString(htmlEntity(c))
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escapeUTF16 escapes a string of any kind code unit by code unit, so
// that unpaired surrogates are kept exactly as JavaScript keeps them.
func escapeUTF16(s goja.String) goja.Value {
	n := s.Length()
	i := 0
	for ; i < n; i++ {
		if c := s.CharAt(i); c < 0x80 && htmlSpecial[c] {
			break
		}
	}
	if i == n {
		return s
	}
	out := make([]uint16, 0, n+16)
	for j := 0; j < i; j++ {
		out = append(out, s.CharAt(j))
	}
	for ; i < n; i++ {
		c := s.CharAt(i)
		if c < 0x80 && htmlSpecial[c] {
			for _, r := range htmlEntity(byte(c)) {
				out = append(out, uint16(r))
			}
			continue
		}
		out = append(out, c)
	}
	return goja.StringFromUTF16(out)
}
