package config

import (
	"os"
	"strings"
	"testing"
)

// The README's configuration table lists every variable with its default
// (scripts/readme-config.sh rewrites it from Vars).
func TestReadmeListsEveryVariable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, v := range Vars {
		d := v.Default
		if d == "" {
			d = "(empty)"
		}
		if row := "| `" + v.Name + "` | `" + d + "` |"; !strings.Contains(readme, row) {
			t.Errorf("README lacks %q: run scripts/readme-config.sh", row)
		}
	}
}
