package pages

import "testing"

// TestServiceWorkerVersionFollowsBuild: the version hashes the client
// build's asset names, so a deploy with any changed client file ships a
// new worker.
func TestServiceWorkerVersionFollowsBuild(t *testing.T) {
	srv, _ := newTestHandler(t)
	id := srv.engine.BuildID()
	if len(id) != 16 {
		t.Fatalf("BuildID %q", id)
	}
	f := srv.offline(t.Context())
	if f.swID != offlineVersion(id, f.page.Body) {
		t.Error("the worker's version is not derived from the build and the offline page")
	}
	if offlineVersion(id, f.page.Body) == offlineVersion("0000000000000000", f.page.Body) {
		t.Error("a different build gives the same worker version")
	}
}
