package proxy_test

import (
	"os"
	"os/exec"
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

// The VCL's rules against a scripted instance (deploy/varnish/site.vtc,
// run by varnishtest): what the real-instance test cannot make the site
// do on cue. An answer with Set-Cookie or without Cache-Control is never
// kept; an expired page is served while stale-while-revalidate runs and
// refreshed in the background; past it, an instance's 500 gets the
// stored copy (stale-if-error); a page never stored gets the instance's
// own error.
func TestVCLRules(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Varnish")
	}
	varnishd(t)
	vt, err := exec.LookPath("varnishtest")
	if err != nil {
		vt = "/usr/bin/varnishtest"
	}
	dir := filepath.Join(root, "deploy", "varnish")
	out, err := exec.Command(vt, "-Dsitevcl="+filepath.Join(dir, "site.vcl"), filepath.Join(dir, "site.vtc")).CombinedOutput()
	if err != nil {
		t.Fatalf("varnishtest: %v\n%s", err, out)
	}
	t.Logf("%s", strings.TrimSpace(string(out)))
}
