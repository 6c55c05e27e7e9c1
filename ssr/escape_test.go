package ssr

import (
	"testing"

	"github.com/dop251/goja"
)

// The native escape must return what React's own escapeTextForBrowser
// returns (the function text escapePatch replaces, run in goja), for
// every kind of value React passes it, or throw where React throws.
func TestNativeEscapeMatchesReact(t *testing.T) {
	rt, _ := sinkRuntime(t)
	if _, err := rt.RunString(`var na=/["'&<>]/;` + escapePatch.from + `; var reactEscape = v;`); err != nil {
		t.Fatal(err)
	}
	inputs := []string{
		`""`, `"plain text"`, `"a&b"`, `"<script>alert('x')</script>"`, `"\"quoted\""`, `"&amp; already"`,
		`"café & crème"`, `"— naïve <b>"`, `"💧 & 🔥"`, `"emoji at end 💧"`, `"\ud83d lone high & <"`, `"lone low \udca7 >"`,
		`"\u2028 line sep 'x'"`, `"'"`, `">"`,
		`0`, `-0`, `1.5`, `1e21`, `1e-7`, `0.1+0.2`, `NaN`, `Infinity`, `-Infinity`, `123456789`, `2**53`,
		`true`, `false`, `undefined`, `null`,
		`({toString(){return "<obj>"}})`, `({valueOf(){return "a&b"}, toString(){return "no"}})`, `[1,"<",2]`,
		`new String("boxed & <")`, `10n`,
	}
	for _, in := range inputs {
		want, err := rt.RunString(`reactEscape(` + in + `)`)
		if err != nil {
			t.Fatalf("%s: React: %v", in, err)
		}
		got, err := rt.RunString(`__ssrEscape(` + in + `)`)
		if err != nil {
			t.Fatalf("%s: native: %v", in, err)
		}
		if !got.StrictEquals(want) {
			t.Errorf("escape(%s) = %q, React gives %q", in, got, want)
		}
		if s, ok := got.(goja.String); !ok || s.Length() != want.(goja.String).Length() {
			t.Errorf("escape(%s): not the same string value", in)
		}
	}
	for _, in := range []string{`Symbol("s")`, `({toString(){throw new Error("boom")}})`} {
		_, rerr := rt.RunString(`reactEscape(` + in + `)`)
		_, nerr := rt.RunString(`__ssrEscape(` + in + `)`)
		if rerr == nil || nerr == nil {
			t.Errorf("escape(%s): React err %v, native err %v; both must throw", in, rerr, nerr)
		}
	}
}

func TestEscapeASCII(t *testing.T) {
	for in, want := range map[string]string{
		"":          "",
		"abc":       "abc",
		`&<>"'`:     "&amp;&lt;&gt;&quot;&#x27;",
		"x < y & z": "x &lt; y &amp; z",
		"end>":      "end&gt;",
	} {
		got := in
		if i := indexHTMLSpecial(in); i >= 0 {
			got = escapeASCIIFrom(in, i)
		}
		if got != want {
			t.Errorf("escape %q = %q, want %q", in, got, want)
		}
	}
}
