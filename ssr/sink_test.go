package ssr

import (
	"testing"

	"github.com/dop251/goja"
)

func sinkRuntime(t *testing.T) (*goja.Runtime, *Natives) {
	t.Helper()
	rt := goja.New()
	nat, err := InstallNatives(rt)
	if err != nil {
		t.Fatal(err)
	}
	return rt, nat
}

// runResult runs js, which returns a render's [html, head, attrs], and
// reads it as the pool does.
func runResult(t *testing.T, rt *goja.Runtime, nat *Natives, js string) *Result {
	t.Helper()
	v, err := rt.RunString(js)
	if err != nil {
		t.Fatal(err)
	}
	res, err := nat.Result(v)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The sink must give Go exactly the bytes that joining the chunks in
// JavaScript and exporting the string gave: ASCII, Latin-1, BMP text,
// surrogate pairs (whole, and split across two chunks), unpaired
// surrogates (U+FFFD, as goja's export makes them), and values that are
// not strings, converted as `"" + v` converts them.
func TestSinkMatchesJoinedString(t *testing.T) {
	rt, _ := sinkRuntime(t)
	cases := map[string]string{
		"ascii":           `["<div>", "a&b", "</div>"]`,
		"latin1":          `["café ", "naïve", " ©"]`,
		"bmp":             `["— ", "€", "\u2028", "日本"]`,
		"pair":            `["drop 💧", "🔥"]`,
		"split pair":      `["x\ud83d", "\udca7y"]`,
		"split at end":    `["x", "\ud83d"]`,
		"lone high":       `["\ud83dx", "y"]`,
		"high then high":  `["\ud83d", "\ud83d\udca7"]`,
		"lone low":        `["\udca7", "z"]`,
		"high then ascii": `["\ud83d", "ascii"]`,
		"non-strings":     `[1, 2.5, true, undefined, "x", {toString(){return "obj"}}, {valueOf(){return 7}, toString(){return "no"}}]`,
		"null ignored":    `["a", null, "b"]`,
		"empty":           `[]`,
	}
	for name, chunks := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := rt.RunString(`(function(c){var g="";for(var i=0;i<c.length;i++)if(c[i]!==null)g+=c[i];return g})(` + chunks + `)`)
			if err != nil {
				t.Fatal(err)
			}
			got, err := rt.RunString(`(function(c){var d=__ssrSink.begin();for(var i=0;i<c.length;i++)if(__ssrSink.push(c[i])!==true)throw "push";return __ssrSink.done(d)})(` + chunks + `)`)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("sink %q, joined %q", got.String(), want.String())
			}
		})
	}
}

func TestAppendJSString(t *testing.T) {
	u := func(s ...uint16) goja.Value { return goja.StringFromUTF16(s) }
	for _, c := range []struct {
		name   string
		chunks []goja.Value
		want   string
	}{
		{"ascii", []goja.Value{u('a', '<', '&')}, "a<&"},
		{"escaped chars stay as they are", []goja.Value{u('"', '\'', '>')}, `"'>`},
		{"two-byte", []goja.Value{u(0xe9)}, "é"},
		{"three-byte", []goja.Value{u(0x2014, 0x20ac)}, "—€"},
		{"pair", []goja.Value{u(0xd83d, 0xdca7)}, "💧"},
		{"split pair", []goja.Value{u('a', 0xd83d), u(0xdca7, 'b')}, "a💧b"},
		{"lone high at end", []goja.Value{u(0xd83d)}, "\uFFFD"},
		{"lone high before ascii chunk", []goja.Value{u(0xd83d), u('a')}, "\uFFFDa"},
		{"lone low", []goja.Value{u(0xdca7, 'a')}, "\uFFFDa"},
	} {
		var b []byte
		var hi uint16
		for _, v := range c.chunks {
			b, hi = appendJSString(b, hi, v)
		}
		b = flushSurrogate(b, hi)
		if string(b) != c.want {
			t.Errorf("%s: got %q, want %q", c.name, b, c.want)
		}
	}
}

// Nested renders each get their own buffer; a render kept in Go returns
// "" to JavaScript and its bytes to Result; an abandoned render (a throw
// between begin and done) is dropped by the outer done and by Reset.
func TestSinkNestingAndKeep(t *testing.T) {
	rt, nat := sinkRuntime(t)
	res := runResult(t, rt, nat, `(function(){
		var outer = __ssrSink.begin({ssrKeepInGo: true});
		__ssrSink.push("kept");
		__ssrSink.begin({ssrKeepInGo: true}); __ssrSink.push("abandoned");
		return [__ssrSink.done(outer), "", ""];
	})()`)
	if res.HTML != "kept" {
		t.Fatalf("html %q, want the outer render's only", res.HTML)
	}
	nat.Reset()
	res = runResult(t, rt, nat, `(function(){
		var outer = __ssrSink.begin({ssrKeepInGo: true});
		__ssrSink.push("a");
		var inner = __ssrSink.begin();
		__ssrSink.push("<i>");
		var i = __ssrSink.done(inner);
		__ssrSink.push(i + "é💧");
		return [__ssrSink.done(outer), "h", "l"];
	})()`)
	if res.HTML != "a<i>é💧" || res.Head != "h" || res.HTMLAttrs != "l" {
		t.Errorf("result %+v", res)
	}
	// A kept render must not also return markup, and Reset forgets it.
	nat.Reset()
	if res = runResult(t, rt, nat, `["plain", "", ""]`); res.HTML != "plain" {
		t.Errorf("after Reset: %+v", res)
	}
	if _, err := rt.RunString(`__ssrSink.push("x")`); err == nil {
		t.Error("push outside a render must throw")
	}
}

// push takes any number of chunks: every argument is appended in order,
// nulls skipped, and a pair split between two arguments joined.
func TestSinkPushApply(t *testing.T) {
	rt, _ := sinkRuntime(t)
	v, err := rt.RunString(`(function(){
		var d = __ssrSink.begin();
		var chunks = Object.setPrototypeOf(["<p>", null, "café", "x\ud83d", "\udca7", 7, "</p>"], Object.create(null));
		if (__ssrSink.push.apply(null, chunks) !== true) throw "push.apply";
		__ssrSink.push.apply(null, []);
		return __ssrSink.done(d);
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "<p>caféx💧7</p>" {
		t.Errorf("got %q", got)
	}
}

// A segment's chunk list (segment.go) as React uses it: pushes of any
// number of chunks, length read where a child segment goes, flushes of
// runs between children and of the rest, into the sink in progress.
func TestSegmentChunkList(t *testing.T) {
	rt, nat := sinkRuntime(t)
	res := runResult(t, rt, nat, `(function(){
		var d = __ssrSink.begin({ssrKeepInGo: true});
		var h = {push: __ssrSink.push};
		var seg = __ssrSink.segment();
		if (seg.length !== 0) throw "empty length " + seg.length;
		seg.push("<div", " id=\"", "x", "\"", ">");
		var at = seg.length;                 // a child goes here
		seg.push("café ", null, "\ud83d", "\udca7");
		var at2 = seg.length;
		seg.push("</div>");
		if (seg.length !== 10) throw "length " + seg.length;
		var e = seg.flushTo(h, 0, at);
		h.push("[child]");
		e = seg.flushTo(h, e, at2);
		if (seg.flushTo(h, e, e) !== e) throw "empty run";
		h.push("[child2]");
		seg.flushTo(h, e, seg.length);
		return [__ssrSink.done(d), "", ""];
	})()`)
	if want := `<div id="x">[child]café 💧[child2]</div>`; res.HTML != want {
		t.Errorf("got %q, want %q", res.HTML, want)
	}
	for name, js := range map[string]string{
		"flush at an unread length": `var s=__ssrSink.segment(); var d=__ssrSink.begin(); s.push("a","b"); s.flushTo({push:__ssrSink.push}, 0, 1)`,
		"flush elsewhere":           `var s=__ssrSink.segment(); var d=__ssrSink.begin(); s.push("a"); s.flushTo({push:function(){}}, 0, s.length)`,
		"set a property":            `"use strict"; __ssrSink.segment().x = 1`,
	} {
		if _, err := rt.RunString(js); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// After Reset (the next render) a chunk list of a render before is
	// dead: its buffer is reused.
	nat.Reset()
	old, err := rt.RunString(`__ssrSink.segment()`)
	if err != nil {
		t.Fatal(err)
	}
	rt.Set("old", old)
	nat.Reset()
	if _, err := rt.RunString(`old.push("x")`); err == nil {
		t.Error("a dead chunk list took a push")
	}
}
