package settings

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/config"
)

// memStore keeps settings in memory, and fails when told to.
type memStore struct {
	mu   sync.Mutex
	m    map[string]string
	fail error
}

func (s *memStore) Settings(context.Context) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, s.fail
	}
	out := map[string]string{}
	for k, v := range s.m {
		out[k] = v
	}
	return out, nil
}

func (s *memStore) SetSettings(_ context.Context, kv map[string]string, _ time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	for k, v := range kv {
		s.m[k] = v
	}
	return nil
}

func newService(t *testing.T) (*Service, *memStore) {
	t.Helper()
	cfg, err := config.LoadFrom(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	st := &memStore{m: map[string]string{}}
	return &Service{Store: st, Defaults: cfg.Business, BaseURL: "https://www.example.test", Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, st
}

func TestSaveValidatesAndKeepsWhatIsNotSent(t *testing.T) {
	s, store := newService(t)
	ctx := context.Background()
	st, _ := s.Load(ctx)
	st.BusinessHours = "Mo-Fr 07:30-17:00"
	st.ReviewRating = Text("4.7")
	if _, err := s.Save(ctx, st, time.Now()); err != nil {
		t.Fatal(err)
	}
	// A save without the hours or the review figures keeps the saved ones.
	st.BusinessHours, st.ReviewRating, st.ReviewCount = "", FormValue{}, FormValue{}
	st.BusinessName = "  Renamed Co  "
	got, err := s.Save(ctx, st, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got.BusinessName != "Renamed Co" || got.BusinessHours != "Mo-Fr 07:30-17:00" || got.ReviewRating.Text != "4.7" {
		t.Errorf("saved %+v", got)
	}
	if b := s.Business(ctx); b.Name != "Renamed Co" {
		t.Errorf("business name %q", b.Name)
	}
	// A bad field saves nothing and names the field.
	before := len(store.m)
	st.Phone, st.BusinessName = "12", "Other Co"
	_, err = s.Save(ctx, st, time.Now())
	var invalid Invalid
	if !errors.As(err, &invalid) || invalid["phone"] == "" || len(invalid) != 1 {
		t.Fatalf("bad phone: %v", err)
	}
	if len(store.m) != before || store.m["business_name"] != "Renamed Co" {
		t.Error("an invalid save changed what was saved")
	}
}

func TestReadFailureFallsBackToTheConfiguration(t *testing.T) {
	s, store := newService(t)
	store.fail = errors.New("database down")
	ctx := context.Background()
	if b := s.Business(ctx); b != s.Defaults {
		t.Errorf("business %+v, want the configured facts", b)
	}
	if a := s.Availability(ctx); !a.EmergencyMode || s.Business(ctx).Phone != s.Defaults.Phone {
		t.Errorf("availability %+v, want 24/7 on the configured phone", a)
	}
	_, err := s.Save(ctx, s.defaults(), time.Now())
	var invalid Invalid
	if err == nil || errors.As(err, &invalid) {
		t.Errorf("a valid save with the database down: %v, want the store's error", err)
	}
}

// The acknowledgement switch: on by default, saved under the
// key notify reads, kept by a save that does not send it, and a save
// without it when the saved value cannot be read saves nothing.
func TestLeadAck(t *testing.T) {
	s, store := newService(t)
	ctx := context.Background()
	st, _ := s.Load(ctx)
	if !st.AckOn() || st.LeadAck == nil {
		t.Fatal("the acknowledgement is off by default")
	}
	off := false
	st.LeadAck = &off
	if _, err := s.Save(ctx, st, time.Now()); err != nil {
		t.Fatal(err)
	}
	if store.m[KeyLeadAck] != "false" || KeyLeadAck != "lead_ack" {
		t.Fatalf("stored %q under %q", store.m[KeyLeadAck], KeyLeadAck)
	}
	st.LeadAck = nil
	got, err := s.Save(ctx, st, time.Now())
	if err != nil || got.AckOn() || store.m[KeyLeadAck] != "false" {
		t.Errorf("a save without leadAck: %+v %v, stored %q", got.LeadAck, err, store.m[KeyLeadAck])
	}
	if on, err := s.Toggle(func(v Settings) bool { return v.AckOn() })(ctx); on || err != nil {
		t.Errorf("toggle %v %v", on, err)
	}
	store.fail = errors.New("database down")
	if _, err := s.Save(ctx, st, time.Now()); err == nil {
		t.Error("a save without leadAck while the database cannot be read succeeded")
	}
	if _, err := s.Toggle(func(v Settings) bool { return v.AckOn() })(ctx); err == nil {
		t.Error("the switch read no error while the database is down")
	}
}
