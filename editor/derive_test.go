package editor

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
)

// A saved post's reading time is the server's, whatever was sent; its
// empty SEO texts stay empty in the record and are derived in the site
// it publishes; an unknown icon and an unsafe body link block a publish.
// On both databases.
func TestDerivedOnSaveAndPublish(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		a := content.Article{Slug: "sump-pumps", Title: "Sump Pumps in Spring", Excerpt: "Why they fail in March.", Category: "restoration",
			PublishDate: "2026-11-26", ReadTime: 42, Content: strings.Repeat("word ", 401)}
		data, _ := json.Marshal(a)
		it, err := e.svc.Create(ctx, content.KindArticle, data, owner)
		if err != nil {
			t.Fatal(err)
		}
		var stored content.Article
		json.Unmarshal([]byte(it.Draft), &stored)
		if stored.ReadTime != 3 || stored.SEOTitle != "" || stored.MetaDescription != "" {
			t.Errorf("stored draft: readTime %d, seoTitle %q, description %q", stored.ReadTime, stored.SEOTitle, stored.MetaDescription)
		}
		if it, err = e.svc.Publish(ctx, it.ID, it.Version, owner); err != nil {
			t.Fatalf("publish with derived SEO texts: %v", err)
		}
		site, err := e.svc.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		live, ok := site.Article("sump-pumps")
		if !ok || live.SEOTitle != a.Title || live.MetaDescription != a.Excerpt || live.ReadTime != 3 {
			t.Errorf("live: %+v", live)
		}

		a.Content = "Read [this](data:text/html,x) first."
		data, _ = json.Marshal(a)
		if it, err = e.svc.Save(ctx, it.ID, it.Version, data, owner); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Publish(ctx, it.ID, it.Version, owner); err == nil || !strings.Contains(err.Error(), "content") {
			t.Errorf("an unsafe link was published: %v", err)
		}

		items, _ := e.svc.List(ctx, content.KindService)
		sv := items[0]
		var m map[string]any
		json.Unmarshal([]byte(sv.Draft), &m)
		m["icon"] = "water-drop"
		data, _ = json.Marshal(m)
		if sv, err = e.svc.Save(ctx, sv.ID, sv.Version, data, owner); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Publish(ctx, sv.ID, sv.Version, owner); err == nil || !strings.Contains(err.Error(), "icon") {
			t.Errorf("an unknown icon was published: %v", err)
		}
	})
}
