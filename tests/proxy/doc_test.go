package proxy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/deploying.md shows the configuration the test runs, byte for byte.
func TestDeployingShowsTheVCL(t *testing.T) {
	vcl, err := os.ReadFile(filepath.Join(root, "deploy", "varnish", "site.vcl"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "deploying.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```vcl\n"+string(vcl)+"```\n") {
		t.Error("docs/deploying.md's ```vcl block is not deploy/varnish/site.vcl: copy the file into it")
	}
}
