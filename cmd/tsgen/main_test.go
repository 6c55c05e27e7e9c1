package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The committed admin/api.gen.ts is what the Go types generate: a Go
// wire type changed without `go run ./cmd/tsgen` fails here, and so does
// a hand edit of the generated file.
func TestGeneratedFileIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", Out))
	if err != nil {
		t.Fatalf("%v: run go run ./cmd/tsgen", err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("%s is not what the Go types generate; run go run ./cmd/tsgen (-want, +got):\n%s", Out, diff)
	}
}
