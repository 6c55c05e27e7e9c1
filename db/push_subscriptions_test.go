package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

func testPushSub(user, endpoint string, now time.Time) PushSubscription {
	return PushSubscription{UserID: user, Endpoint: endpoint, P256dh: "key-" + endpoint, Auth: "auth", Label: "Phone", CreatedAt: now}
}

func TestPushSubscriptions(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		workFixture(t, s, now)
		a, err := s.AddPushSubscription(ctx, testPushSub("adm", "https://push.example/a", now))
		if err != nil || a.ID == "" || a.UserID != "adm" {
			t.Fatalf("add: %+v %v", a, err)
		}
		c, err := s.AddPushSubscription(ctx, testPushSub("crew", "https://push.example/c", now.Add(time.Second)))
		if err != nil {
			t.Fatal(err)
		}
		// The same browser subscribing again, signed in as the crew
		// member: the row is taken over, with its new keys.
		again := testPushSub("crew", "https://push.example/a", now.Add(time.Minute))
		again.P256dh, again.Label = "new-key", "Laptop"
		moved, err := s.AddPushSubscription(ctx, again)
		if err != nil || moved.ID != a.ID || moved.UserID != "crew" || moved.P256dh != "new-key" || moved.Label != "Laptop" {
			t.Fatalf("re-subscribe: %+v %v", moved, err)
		}
		if mine, _ := s.PushSubscriptionsFor(ctx, "adm"); len(mine) != 0 {
			t.Errorf("the admin still has %d devices", len(mine))
		}
		if mine, _ := s.PushSubscriptionsFor(ctx, "crew"); len(mine) != 2 {
			t.Errorf("the crew member has %d devices", len(mine))
		}
		if err := s.CreateUser(ctx, testUser("adm2", "second@example.com", "admin", now)); err != nil {
			t.Fatal(err)
		}
		d, _ := s.AddPushSubscription(ctx, testPushSub("adm2", "https://push.example/d", now.Add(2*time.Second)))
		rs, err := s.PushRecipients(ctx)
		if err != nil || len(rs) != 3 {
			t.Fatalf("recipients %+v %v", rs, err)
		}
		roles := map[string]string{}
		for _, r := range rs {
			roles[r.ID] = r.Role
		}
		if roles[a.ID] != "staff" || roles[c.ID] != "staff" || roles[d.ID] != "admin" {
			t.Errorf("roles %v", roles)
		}
		// A disabled account's devices are no recipients, and a delivery
		// reading one sees no role.
		off := true
		if _, err := s.ChangeUser(ctx, "crew", UserChange{Disabled: &off}, now); err != nil {
			t.Fatal(err)
		}
		if rs, _ := s.PushRecipients(ctx); len(rs) != 1 || rs[0].ID != d.ID {
			t.Errorf("recipients after disabling: %+v", rs)
		}
		if r, err := s.PushRecipientByID(ctx, c.ID); err != nil || r.Role != "" || r.Endpoint != "https://push.example/c" {
			t.Errorf("disabled device: %+v %v", r, err)
		}
		// Only the owner removes a device.
		if err := s.DeletePushSubscription(ctx, d.ID, "crew"); !errors.Is(err, ErrNotFound) {
			t.Errorf("someone else's device: %v", err)
		}
		if err := s.DeletePushSubscription(ctx, d.ID, "adm2"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PushRecipientByID(ctx, d.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("removed device: %v", err)
		}
		// The push service's 410 removes it by endpoint, once.
		for i, want := range []bool{true, false} {
			if ok, err := s.DeletePushSubscriptionByEndpoint(ctx, "https://push.example/c"); ok != want || err != nil {
				t.Errorf("delete by endpoint %d: %v %v", i, ok, err)
			}
		}
		if err := s.PushSent(ctx, a.ID, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		all, err := s.ListPushSubscriptions(ctx)
		if err != nil || len(all) != 1 || all[0].LastSentAt == nil || !all[0].LastSentAt.Equal(now.Add(time.Hour)) {
			t.Errorf("all %+v %v", all, err)
		}
	})
}

// An account holds at most MaxPushDevices, even when it subscribes from
// many requests on two instances at once.
func TestPushDeviceLimitUnderConcurrency(t *testing.T) {
	ForEachDBPair(t, func(t *testing.T, a, b *Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		workFixture(t, a, now)
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			ok, full int
		)
		for i := range 3 * MaxPushDevices {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := []*Store{a, b}[i%2]
				_, err := s.AddPushSubscription(ctx, testPushSub("crew", fmt.Sprint("https://push.example/", i), now))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, ErrTooManyDevices):
					full++
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		subs, err := a.PushSubscriptionsFor(ctx, "crew")
		if err != nil {
			t.Fatal(err)
		}
		if ok != MaxPushDevices || full != 2*MaxPushDevices || len(subs) != MaxPushDevices {
			t.Errorf("%d added, %d refused, %d stored; want %d stored", ok, full, len(subs), MaxPushDevices)
		}
		// A device already subscribed may subscribe again at the limit.
		if _, err := b.AddPushSubscription(ctx, testPushSub("crew", subs[0].Endpoint, now)); err != nil {
			t.Errorf("re-subscribing at the limit: %v", err)
		}
	})
}
