package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media/exiftest"
)

// A homeowner's photo through the assembled site: the post streams past
// BODY_LIMIT (its own bounds apply), lands on the lead, is listed on the
// link's files page (private headers) and downloads through the link, and
// is never served from /media/, whose rows it is not in. The adjuster's
// pages have no post route.
func TestLeadFilesThroughTheSite(t *testing.T) {
	srv, store := newTestServer(t, map[string]string{"BODY_LIMIT": "16K", "DATA_DIR": t.TempDir()})
	h := srv.Handler()
	ctx := context.Background()
	now := time.Now().UTC()
	if err := store.CreateLead(ctx, db.Lead{ID: "LS", CreatedAt: now, UpdatedAt: now, FirstName: "Ann", Email: "ls@example.com", City: "Smyrna", Status: "new", Source: "website"}); err != nil {
		t.Fatal(err)
	}
	link := func(kind string) string {
		b := make([]byte, 16)
		rand.Read(b)
		tok := base64.RawURLEncoding.EncodeToString(b)
		sum := sha256.Sum256([]byte(tok))
		x := store.DB()
		if _, err := x.Exec(x.Rebind(`INSERT INTO lead_links (id, lead_id, kind, token_hash, created_at) VALUES (?, 'LS', ?, ?, ?)`), "k"+tok, kind, hex.EncodeToString(sum[:]), now); err != nil {
			t.Fatal(err)
		}
		return tok
	}
	home, claim := link(db.LinkHomeowner), link(db.LinkAdjuster)
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("message", "Water in the hall.")
	fw, _ := w.CreateFormFile("photos", "hall.jpg")
	photo := exiftest.JPEG(400, 300, exiftest.EXIF{Lat: 33.88, Lng: -84.51, Taken: "2026:11:01 10:00:00"})
	fw.Write(append(photo, make([]byte, 32<<10)...)) // past BODY_LIMIT, within the photo's bound
	w.Close()
	req := httptest.NewRequest("POST", "/my/"+home+"/photos", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	res := do(t, h, req)
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "files=sent") {
		t.Fatalf("post: %d %s %s", res.StatusCode, res.Header.Get("Location"), res.Body)
	}
	fs, err := store.LeadFiles(ctx, "LS")
	if err != nil || len(fs) != 1 {
		t.Fatalf("files: %+v %v", fs, err)
	}
	page := get(t, h, "/my/"+home+"/files")
	if page.StatusCode != 200 || page.Header.Get("Cache-Control") != "no-store" || page.Header.Get("Referrer-Policy") != "no-referrer" ||
		!strings.Contains(page.Header.Get("X-Robots-Tag"), "noindex") || !strings.Contains(page.Body, "/my/"+home+"/files/"+fs[0].ID) {
		t.Errorf("files page: %d %v", page.StatusCode, page.Header)
	}
	if r := get(t, h, "/my/"+home+"/files/"+fs[0].ID); r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("download: %d %v", r.StatusCode, r.Header)
	}
	if r := get(t, h, "/media/"+fs[0].Path); r.StatusCode != 404 {
		t.Errorf("/media/ served a lead's file: %d", r.StatusCode)
	}
	adj := get(t, h, "/claim/"+claim+"/files")
	if adj.StatusCode != 200 || strings.Contains(adj.Body, `name="message"`) || strings.Contains(adj.Body, "/my/"+home) {
		t.Errorf("adjuster's page: %d, a form (%v) or the homeowner's link (%v) in it", adj.StatusCode, strings.Contains(adj.Body, `name="message"`), strings.Contains(adj.Body, "/my/"+home))
	}
	post := httptest.NewRequest("POST", "/claim/"+claim+"/messages", strings.NewReader("message=hi"))
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if r := do(t, h, post); r.StatusCode < 400 {
		t.Errorf("adjuster's post: %d", r.StatusCode)
	}
}
