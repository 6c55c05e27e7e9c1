package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each committed generated file (admin/api.gen.ts, the admin API's
// answers; components/props.gen.ts, the public pages' props) is what the
// Go types generate: a Go type changed without `go run ./cmd/tsgen` fails
// here, and so does a hand edit of a generated file.
func TestGeneratedFileIsCurrent(t *testing.T) {
	for _, f := range files {
		t.Run(f.Out, func(t *testing.T) {
			want, err := f.generate()
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join("..", "..", f.Out))
			if err != nil {
				t.Fatalf("%v: run go run ./cmd/tsgen", err)
			}
			if diff := cmp.Diff(want, string(got)); diff != "" {
				t.Errorf("%s is not what the Go types generate; run go run ./cmd/tsgen (-want, +got):\n%s", f.Out, diff)
			}
		})
	}
}
