package db

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func seedMedia(t *testing.T, s *Store, id, kind string) Media {
	t.Helper()
	m := Media{ID: id, Project: "basement", Path: "projects/basement/" + id + ".mp4", Name: id + ".mp4", Kind: kind,
		MIME: "video/mp4", Size: 10, CreatedAt: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)}
	if kind == "image" {
		m.Path, m.Name, m.MIME = "projects/basement/"+id+".jpg", id+".jpg", "image/jpeg"
	}
	if err := s.CreateMedia(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMediaText: caption and alt are saved as given (markup included: the
// pages escape it), together, and 50 concurrent saves leave one save's
// pair, never one save's caption with another's alt.
func TestMediaText(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		seedMedia(t, s, "v1", "video")
		caption, alt := `<script>alert("x")</script> & 'quotes'`, "Flooded basement <b>before</b> drying"
		m, err := s.SetMediaText(ctx, "v1", caption, alt)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := s.GetMedia(ctx, "v1")
		if diff := cmp.Diff([2]string{caption, alt}, [2]string{got.Caption, got.Alt}); diff != "" || m.Caption != caption {
			t.Errorf("stored text (-want, +got):\n%s", diff)
		}
		if _, err := s.SetMediaText(ctx, "nope", "a", "b"); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing row: %v, want ErrNotFound", err)
		}

		var wg sync.WaitGroup
		errs := make(chan error, 50)
		start := make(chan struct{})
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, err := s.SetMediaText(ctx, "v1", fmt.Sprintf("caption %d", i), fmt.Sprintf("alt %d", i))
				errs <- err
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("concurrent save: %v", err)
			}
		}
		got, _ = s.GetMedia(ctx, "v1")
		var a, b int
		if _, err := fmt.Sscanf(got.Caption, "caption %d", &a); err != nil {
			t.Fatalf("caption %q", got.Caption)
		}
		if _, err := fmt.Sscanf(got.Alt, "alt %d", &b); err != nil || a != b {
			t.Errorf("after 50 concurrent saves: caption %q with alt %q, not one save's pair", got.Caption, got.Alt)
		}
	})
}

// TestMediaPoster: a poster is set on videos only, carries its size,
// is found by its key, and comes back when its row is deleted.
// Concurrent replacements hand every replaced key to exactly one caller,
// so storage can be cleaned without leaving or double-freeing a file.
func TestMediaPoster(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		seedMedia(t, s, "v1", "video")
		seedMedia(t, s, "p1", "image")
		m, old, err := s.SetMediaPoster(ctx, "v1", "projects/basement/v1-poster-aaaaaaaa.webp", 960, 540)
		if err != nil || old != "" || m.Poster != "projects/basement/v1-poster-aaaaaaaa.webp" || m.Width != 960 || m.Height != 540 {
			t.Fatalf("first poster: %+v %q %v", m, old, err)
		}
		if _, _, err := s.SetMediaPoster(ctx, "p1", "projects/basement/p1-poster-aaaaaaaa.webp", 10, 10); !errors.Is(err, ErrNotFound) {
			t.Errorf("poster on a photo: %v, want ErrNotFound", err)
		}
		if _, _, err := s.SetMediaPoster(ctx, "nope", "projects/basement/x-poster-aaaaaaaa.webp", 10, 10); !errors.Is(err, ErrNotFound) {
			t.Errorf("poster on a missing row: %v, want ErrNotFound", err)
		}
		if ok, err := s.IsPoster(ctx, "projects/basement/v1-poster-aaaaaaaa.webp"); !ok || err != nil {
			t.Errorf("IsPoster(set) = %v %v", ok, err)
		}

		// 20 concurrent replacements: the keys handed back as replaced,
		// plus the one left on the row, are exactly all the keys.
		keys := []string{"projects/basement/v1-poster-aaaaaaaa.webp"}
		var mu sync.Mutex
		var replaced []string
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			key := fmt.Sprintf("projects/basement/v1-poster-%08d.webp", i)
			keys = append(keys, key)
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, old, err := s.SetMediaPoster(ctx, "v1", key, 960, 540)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				replaced = append(replaced, old)
				mu.Unlock()
			}()
		}
		wg.Wait()
		final, _ := s.GetMedia(ctx, "v1")
		got := append(replaced, final.Poster)
		sort.Strings(got)
		sort.Strings(keys)
		if diff := cmp.Diff(keys, got); diff != "" {
			t.Errorf("replaced keys plus the current one (-want, +got):\n%s", diff)
		}

		gone, err := s.DeleteMedia(ctx, "v1")
		if err != nil || gone.Poster != final.Poster {
			t.Errorf("DeleteMedia returned poster %q, want %q (%v)", gone.Poster, final.Poster, err)
		}
		if ok, _ := s.IsPoster(ctx, final.Poster); ok {
			t.Error("a deleted video's poster is still listed")
		}
	})
}

func TestMediaCRUD(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
		for i := 0; i < 3; i++ {
			m := Media{ID: fmt.Sprint("m", i), Project: "kitchen-remodel", Path: fmt.Sprintf("projects/kitchen-remodel/%d.jpg", i),
				Name: fmt.Sprintf("%d.jpg", i), Kind: "image", MIME: "image/jpeg", Size: 100, Width: 800, Height: 600, CreatedAt: now.Add(time.Duration(i) * time.Minute)}
			if err := s.CreateMedia(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		list, err := s.ListMedia(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 3 || list[0].ID != "m2" {
			t.Fatalf("ListMedia = %d items, first %q; want 3, newest m2 first", len(list), list[0].ID)
		}
		if !list[0].CreatedAt.Equal(now.Add(2 * time.Minute)) {
			t.Errorf("created_at round trip = %v", list[0].CreatedAt)
		}
		if gone, err := s.DeleteMedia(ctx, "m1"); err != nil || gone.Path != "projects/kitchen-remodel/1.jpg" {
			t.Fatalf("DeleteMedia = %+v, %v", gone, err)
		}
		if _, err := s.DeleteMedia(ctx, "m1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("second delete err = %v, want ErrNotFound", err)
		}
		if _, err := s.GetMedia(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("GetMedia(nope) err = %v, want ErrNotFound", err)
		}
	})
}
