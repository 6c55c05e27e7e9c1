package indexnow

import (
	"io"
	"log/slog"
	"testing"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/indexnow"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// The room's tests call its handlers as the PIN on a real test store,
// with a fake IndexNow (indexnowtest). Who may call them (the guards of
// server/install.go), the headers every answer carries and the key file
// among the site's pages are tested across rooms in server/.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const testBase = "https://www.example-restoration.test"

// room is the IndexNow room over its store and the embedded content,
// behind an echo instance that routes as server/install.go does (the key
// file a middleware, the rest without the guards).
type room struct {
	*authtest.Room
	h     *Handler
	store *db.Store
}

// newRoom builds the room on store, submitting to endpoint, with no key
// in the configuration.
func newRoom(t testing.TB, store *db.Store, endpoint string) *room {
	t.Helper()
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := &Handler{Store: store, Site: site.New(site.Options{BaseURL: testBase, Content: c, Log: quiet}), Log: quiet,
		IndexNow: &indexnow.Service{Client: indexnow.NewClient(endpoint), Keys: &indexnow.Keys{Store: store}, Store: store, Base: testBase, Log: quiet}}
	r := &room{Room: authtest.New(), h: h, store: store}
	r.Use(h.KeyFile)
	r.GET("/api/admin/indexnow/key", h.GetKey, r.As)
	r.PUT("/api/admin/indexnow/key", h.PutKey, r.As)
	r.POST("/api/admin/indexnow/submit", h.Submit, r.As)
	r.GET("/api/admin/indexnow/submissions", h.Submissions, r.As)
	return r
}

// call sends body as JSON as the PIN.
func (r *room) call(t testing.TB, method, path string, body any) *authtest.Response {
	t.Helper()
	return r.Call(t, method, path, authtest.PIN, body)
}
