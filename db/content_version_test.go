package db

import (
	"context"
	"testing"
	"time"
)

func TestContentVersion(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if v, err := s.ContentVersion(ctx); err != nil || v != 0 {
			t.Fatalf("fresh: %d %v", v, err)
		}
		for want := int64(1); want <= 3; want++ {
			v, err := s.BumpContentVersion(ctx, "upload", time.Now().UTC())
			if err != nil || v != want {
				t.Fatalf("bump: %d %v, want %d", v, err, want)
			}
		}
		if v, _ := s.ContentVersion(ctx); v != 3 {
			t.Errorf("version %d, want 3", v)
		}
	})
}
