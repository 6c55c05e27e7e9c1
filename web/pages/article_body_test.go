package pages

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/content"
)

// Heading ids are made unique with a count per heading text, so a body's
// render time grows with its length, not with its square: 3,000 repeats
// of one heading (counting up from 2 for each took about 2 s per 1,000
// here, 18 s or a timeout for 3,000) render well inside a generous
// ceiling on a loaded machine. The rules refuse such a body long before
// (content/limits.go); the renderer must not depend on that.
func TestRepeatedHeadingsRenderInLinearTime(t *testing.T) {
	h, _ := newTestHandler(t)
	c, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	a := c.Articles[0]
	const n = 3000
	a.Content = strings.Repeat("## Same heading\n", n)
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	rs := c.Records()
	for i := range rs {
		if rs[i].Kind == content.KindArticle && rs[i].Slug == a.Slug {
			rs[i].JSON = b
		}
	}
	site, _, err := content.FromRecords(rs, c.Updated)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	body, err := h.Preview(context.Background(), site, "/blog/"+a.Slug)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("render: %v (%v)", err, took)
	}
	t.Logf("%d repeated headings rendered in %v", n, took)
	if took > 6*time.Second {
		t.Errorf("%d repeated headings took %v to render", n, took)
	}
	for _, id := range []string{`id="same-heading"`, `id="same-heading-2"`, `id="same-heading-3000"`} {
		if !strings.Contains(string(body), id) {
			t.Errorf("no %s in the page", id)
		}
	}
	if strings.Contains(string(body), `id="same-heading-3001"`) {
		t.Error("ids count past the number of headings")
	}
}
