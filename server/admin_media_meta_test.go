package server

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/web/media/mediatest"
)

// multipartWith is a multipart body: the text fields first (in order),
// then the file.
func multipartWith(fields [][2]string, filename string, content []byte) (*bytes.Buffer, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	part, _ := mw.CreateFormFile("file", filename)
	part.Write(content)
	mw.Close()
	return &b, mw.FormDataContentType()
}

func uploadWithText(t *testing.T, h http.Handler, token, project, filename string, content []byte, caption, alt string) *response {
	t.Helper()
	body, ct := multipartWith([][2]string{{"caption", caption}, {"alt", alt}}, filename, content)
	req := httptest.NewRequest("POST", "/api/admin/media?project="+urlQuery(project), body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+token)
	return do(t, h, req)
}

func putPoster(t *testing.T, h http.Handler, token, id, filename string, content []byte) *response {
	t.Helper()
	body, ct := multipartWith(nil, filename, content)
	req := httptest.NewRequest("PUT", "/api/admin/media/"+id+"/poster", body)
	req.Header.Set("Content-Type", ct)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, h, req)
}

func uploadVideo(t *testing.T, h http.Handler, tok, project string) media.GalleryItem {
	t.Helper()
	r := upload(t, h, tok, project, "walkthrough.mp4", append(append([]byte{}, mp4Head...), make([]byte, 100_000)...))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("video upload: %d %s", r.StatusCode, r.Body)
	}
	var it media.GalleryItem
	json.Unmarshal([]byte(r.Body), &it)
	return it
}

// slides are the portfolio carousel's cards on a rendered page.
func slides(doc *html.Node) []*html.Node {
	return find(doc, func(n *html.Node) bool { return hasClass(n, "slide") && attr(n, "role") == "group" })
}

func hasClass(n *html.Node, c string) bool {
	for _, f := range strings.Fields(attr(n, "class")) {
		if f == c {
			return true
		}
	}
	return false
}

// generatedName is a stored file name's timestamp and random part.
var generatedName = regexp.MustCompile(`[0-9]{13}-[a-z0-9]{8}`)

// TestVideoPosterOnPortfolio: a video shows the designed placeholder
// until it has a poster; a poster sent as a JPEG is stored as a WebP
// beside the video, served as an image, and the /portfolio card's video
// points at it with its size and loads nothing up front; the badge and
// label sit outside the video's box; photos' alt text names the project,
// never the file.
func TestVideoPosterOnPortfolio(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	vid := uploadVideo(t, h, tok, "Kitchen Fire Repair")
	if r := upload(t, h, tok, "Kitchen Fire Repair", "IMG_0042.JPG", testJPEG(t, 800, 600)); r.StatusCode != http.StatusCreated {
		t.Fatalf("photo upload: %d %s", r.StatusCode, r.Body)
	}

	videoOf := func(doc *html.Node) *html.Node {
		vs := find(doc, tag("video"))
		if len(vs) != 1 {
			t.Fatalf("%d video elements on /portfolio", len(vs))
		}
		return vs[0]
	}
	// No poster yet: the placeholder names the project, the poster
	// attribute is the transparent pixel, nothing is fetched up front.
	doc := get(t, h, "/portfolio").Doc
	v := videoOf(doc)
	if !strings.HasPrefix(attr(v, "poster"), "data:image/gif;base64,") || attr(v, "preload") != "none" {
		t.Errorf("video without a poster: poster=%q preload=%q", attr(v, "poster"), attr(v, "preload"))
	}
	ph := find(doc, func(n *html.Node) bool { return hasClass(n, "slide__placeholder") })
	if len(ph) != 1 || text(ph[0]) != "Kitchen Fire Repair" {
		t.Errorf("placeholder: %d, %q", len(ph), func() string {
			if len(ph) > 0 {
				return text(ph[0])
			}
			return ""
		}())
	}

	// A captured frame, 1280x720 JPEG.
	r := putPoster(t, h, tok, vid.ID, "frame.jpg", testJPEG(t, 1280, 720))
	if r.StatusCode != http.StatusOK {
		t.Fatalf("poster: %d %s", r.StatusCode, r.Body)
	}
	var it media.GalleryItem
	json.Unmarshal([]byte(r.Body), &it)
	dir := strings.TrimSuffix(vid.Path, filepath.Ext(vid.Path))
	if !strings.HasPrefix(it.Poster, "/media/"+dir+"-poster-") || !strings.HasSuffix(it.Poster, ".webp") || it.Width != 960 || it.Height != 540 {
		t.Errorf("item after poster: %+v", it)
	}
	pr := get(t, h, it.Poster)
	if pr.StatusCode != http.StatusOK || !strings.HasPrefix(pr.Body, "RIFF") {
		t.Fatalf("poster not served: %d", pr.StatusCode)
	}
	mediatest.CheckHeaders(t, pr.Header, "image/webp")

	// /portfolio was re-rendered: the video points at the served poster.
	doc = get(t, h, "/portfolio").Doc
	v = videoOf(doc)
	if attr(v, "poster") != it.Poster || attr(v, "preload") != "none" || attr(v, "width") != "960" || attr(v, "height") != "540" {
		t.Errorf("video element: poster=%q preload=%q %sx%s", attr(v, "poster"), attr(v, "preload"), attr(v, "width"), attr(v, "height"))
	}
	if got := attr(v, "aria-label"); got != "Kitchen Fire Repair project video" {
		t.Errorf("video aria-label %q", got)
	}
	if len(find(doc, func(n *html.Node) bool { return hasClass(n, "slide__placeholder") })) != 0 {
		t.Error("placeholder still shown with a poster")
	}
	for _, img := range find(doc, func(n *html.Node) bool { return n.Data == "img" && strings.HasPrefix(attr(n, "src"), "/media/") }) {
		alt := attr(img, "alt")
		if alt != "Kitchen Fire Repair project photo" || generatedName.MatchString(alt) || strings.Contains(alt, "IMG_0042") {
			t.Errorf("photo alt %q", alt)
		}
	}
	// Badge and label are in the caption, outside the picture's box.
	for _, s := range slides(doc) {
		for _, box := range find(s, func(n *html.Node) bool { return hasClass(n, "slide__media") }) {
			if len(find(box, func(n *html.Node) bool { return hasClass(n, "slide__badge") || hasClass(n, "slide__type") })) > 0 {
				t.Error("a badge or label sits inside the media box, over the picture or the video's controls")
			}
		}
		if len(find(s, func(n *html.Node) bool { return n.Data == "figcaption" && hasClass(n, "slide__caption") })) != 1 {
			t.Error("slide without its caption bar")
		}
	}

	// Replacing the poster and deleting the video, with the files they
	// remove, are tested in the room: web/media/poster_test.go.
}

// TestMediaTextRendered: the caption and alt text given at upload are
// rendered escaped on /portfolio (markup never becomes elements); a save
// is read under BODY_LIMIT; a saved caption and a cleared alt text (the
// default, which names the project) show on the public pages at once.
// The saves themselves (refusals, concurrent saves) are tested in the
// room: web/media/text_test.go.
func TestMediaTextRendered(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	caption := `<script>alert("caption")</script> Kitchen "after" & dried`
	alt := `Dried kitchen <b onmouseover="alert(1)">floor</b>`
	r := uploadWithText(t, h, tok, "Kitchen Dry Out", "k.jpg", testJPEG(t, 600, 400), caption, alt)
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	var it media.GalleryItem
	json.Unmarshal([]byte(r.Body), &it)
	if it.Caption != caption || it.Alt != alt || it.AltDefault {
		t.Errorf("uploaded item: caption %q alt %q default %v", it.Caption, it.Alt, it.AltDefault)
	}

	page := get(t, h, "/portfolio")
	ss := slides(page.Doc)
	if len(ss) != 1 {
		t.Fatalf("%d slides", len(ss))
	}
	imgs := find(ss[0], tag("img"))
	if len(imgs) != 1 || attr(imgs[0], "alt") != alt {
		t.Errorf("img alt not the owner's text, escaped and parsed back")
	}
	captions := find(ss[0], func(n *html.Node) bool { return hasClass(n, "slide__text") })
	if len(captions) != 1 || text(captions[0]) != strings.Join(strings.Fields(caption), " ") {
		t.Errorf("caption shown as %q", func() string {
			if len(captions) > 0 {
				return text(captions[0])
			}
			return ""
		}())
	}
	if len(find(ss[0], func(n *html.Node) bool { return n.Data == "script" || n.Data == "b" })) > 0 {
		t.Error("markup from the caption or alt text became elements")
	}
	if strings.Contains(page.Body, `<script>alert("caption")`) || strings.Contains(page.Body, `<b onmouseover`) {
		t.Error("raw markup in the page source")
	}

	// A body past BODY_LIMIT is refused before it is read whole.
	huge := map[string]string{"caption": strings.Repeat("a", 2<<20), "alt": ""}
	if r := jsonReq(t, h, "PATCH", "/api/admin/media/"+it.ID, tok, huge); r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("2 MB caption: %d", r.StatusCode)
	}
	r = jsonReq(t, h, "PATCH", "/api/admin/media/"+it.ID, tok, map[string]string{"caption": "Save 7 caption", "alt": "Save 7 alt"})
	if r.StatusCode != http.StatusOK {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	page = get(t, h, "/portfolio")
	if !strings.Contains(text(bodyOf(page.Doc)), "Save 7 caption") {
		t.Error("/portfolio does not show the saved caption")
	}
	// Clearing the alt text brings back the default, which names the
	// project, not the file.
	r = jsonReq(t, h, "PATCH", "/api/admin/media/"+it.ID, tok, map[string]string{"caption": "", "alt": "  "})
	json.Unmarshal([]byte(r.Body), &it)
	if r.StatusCode != 200 || it.Alt != "Kitchen Dry Out project photo" || !it.AltDefault || it.Caption != "" {
		t.Errorf("cleared: %d %+v", r.StatusCode, it)
	}
	page = get(t, h, "/")
	for _, img := range find(page.Doc, func(n *html.Node) bool { return n.Data == "img" && strings.HasPrefix(attr(n, "src"), "/media/") }) {
		if attr(img, "alt") != "Kitchen Dry Out project photo" {
			t.Errorf("home photo alt %q", attr(img, "alt"))
		}
	}
	if len(find(page.Doc, func(n *html.Node) bool { return hasClass(n, "slide__text") })) != 0 {
		t.Error("an empty caption still renders its line")
	}
}
