package ssr

import (
	"path/filepath"
	"testing"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

// components/plural.ts writes every count a visitor or the owner reads
// ("1 photo from 1 project"). It is bundled here as the site bundles it
// and run in goja, the server's JavaScript.
func TestPluralCounts(t *testing.T) {
	root, err := FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{filepath.Join(root, "components", "plural.ts")},
		Bundle:      true, Format: api.FormatIIFE, GlobalName: "plural", Target: api.ES2017, Write: false,
	})
	if len(res.Errors) > 0 {
		t.Fatalf("build: %v", res.Errors)
	}
	rt := goja.New()
	if _, err := rt.RunString(string(res.OutputFiles[0].Contents)); err != nil {
		t.Fatal(err)
	}
	call := func(fn string, args ...any) string {
		t.Helper()
		f, ok := goja.AssertFunction(rt.Get("plural").ToObject(rt).Get(fn))
		if !ok {
			t.Fatalf("%s is not exported", fn)
		}
		vals := make([]goja.Value, len(args))
		for i, a := range args {
			vals[i] = rt.ToValue(a)
		}
		v, err := f(goja.Undefined(), vals...)
		if err != nil {
			t.Fatal(err)
		}
		return v.String()
	}
	for _, tc := range []struct {
		got, want string
	}{
		{call("count", 0, "photo"), "0 photos"},
		{call("count", 1, "photo"), "1 photo"},
		{call("count", 2, "photo"), "2 photos"},
		{call("count", 1250, "lead"), "1250 leads"},
		{call("count", 1, "city", "cities"), "1 city"},
		{call("count", 3, "city", "cities"), "3 cities"},
		{call("galleryCount", 1, 0, 1), "1 photo from 1 project"},
		{call("galleryCount", 3, 1, 2), "3 photos and 1 video from 2 projects"},
		{call("galleryCount", 0, 2, 1), "2 videos from 1 project"},
		{call("galleryCount", 0, 0, 0), "0 photos from 0 projects"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
