package config

import (
	"os"
	"strings"
	"testing"
)

// docs/configuration.md's table lists every variable with its default
// (scripts/config-doc.sh rewrites it from Vars).
func TestDocListsEveryVariable(t *testing.T) {
	b, err := os.ReadFile("../docs/configuration.md")
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
			t.Errorf("docs/configuration.md lacks %q: run scripts/config-doc.sh", row)
		}
	}
}
