package analytics

import (
	"hash/fnv"
	"hash/maphash"
	"net/netip"
	"sync"
	"sync/atomic"

	"github.com/atlanta-restoration/site/db"
)

// What one client may add to a day's figures (ADR 029). A
// client is a network (Network: an IPv4 address or an IPv6 /64); its
// visitors are the visitor ids (IP and user agent) seen from it. Without
// these bounds one address sending random user agents minted a visitor
// per beacon, and two addresses moved the Performance Monitor's 75th
// percentile. The per-minute rate limit (the server's CollectPerIP)
// bounds the speed; these bound the day.
const (
	// MaxVisitorsPerNetwork: distinct visitors counted per network and
	// day; an office or a family behind one address has a few. The page
	// views and vitals of further visitors are not counted (their calls
	// and estimate requests count as from uncounted visits).
	MaxVisitorsPerNetwork = 10
	// MaxPageviewsPerVisitor: page views counted per visitor and day.
	MaxPageviewsPerVisitor = 100
	// MaxNotFoundPerNetwork: not-found page views per network and day.
	MaxNotFoundPerNetwork = 20
	// MaxActionsPerNetwork: call taps, and form views, per network and day.
	MaxActionsPerNetwork = 20
	// MaxVitalsPerPage: samples of one metric per page, visitor and day
	// (web-vitals may report a metric again when a page is restored).
	MaxVitalsPerPage = db.VitalsPerPage
	// MaxVitalsPerNetwork: samples of one metric per network and day, so
	// a few clients cannot move a percentile.
	MaxVitalsPerNetwork = 10
	// MaxNetworksPerDay bounds the memory these counts take (2.5 KB a
	// network at most, measured: 25 MB at worst): beacons from further
	// networks that day are not counted.
	MaxNetworksPerDay = 10_000
)

// Budget applies the limits above to one instance's beacons. It is kept
// in memory, per day: with several instances behind a balancer, a client
// whose requests reach n of them can add up to n times as much. Networks
// are keyed by a hash with a per-process seed, so no address is held.
type Budget struct {
	// Capped counts the events over a limit (not stored).
	Capped atomic.Int64
	// OnFull is called once a day for a network whose visitors reached
	// the limit, with whether it is a private or loopback address (a
	// proxy whose clients' addresses the server does not see).
	OnFull func(network string, private bool)

	mu   sync.Mutex
	seed maphash.Seed
	day  string
	nets map[uint64]*netDay
}

type netDay struct {
	visitors    []*visitorDay
	notFound    int
	taps, forms int
	vitals      [8]int // per metric (Metrics)
	warned      bool
}

type visitorDay struct {
	id        string
	pageviews int
	vitals    map[vitalKey]uint8
}

type vitalKey struct {
	metric uint8
	page   uint32
}

// NewBudget returns an empty budget.
func NewBudget() *Budget {
	return &Budget{seed: maphash.MakeSeed(), nets: map[uint64]*netDay{}}
}

func metricIndex(m string) int {
	for i, x := range Metrics {
		if x == m {
			return i
		}
	}
	return -1
}

// Admit counts e (with its visitor id) against the limits of its network
// and visitor, and reports whether it is within them. Leads are not
// beacons and are always admitted (the estimate form has its own
// limits).
func (b *Budget) Admit(network string, e db.Event) bool {
	if e.Kind == db.EventLead {
		return true
	}
	b.mu.Lock()
	ok := b.admit(network, e)
	b.mu.Unlock()
	if !ok {
		b.Capped.Add(1)
	}
	return ok
}

func (b *Budget) admit(network string, e db.Event) bool {
	if e.Day != b.day {
		if e.Day < b.day {
			// A beacon still in flight at midnight: yesterday's counts
			// are gone.
			return false
		}
		b.day, b.nets = e.Day, map[uint64]*netDay{}
	}
	key := maphash.String(b.seed, network)
	n := b.nets[key]
	if n == nil {
		if len(b.nets) >= MaxNetworksPerDay {
			return false
		}
		n = &netDay{}
		b.nets[key] = n
	}
	visitor := func(add bool) *visitorDay {
		for _, v := range n.visitors {
			if v.id == e.Visitor {
				return v
			}
		}
		if !add || e.Visitor == "" {
			return nil
		}
		if len(n.visitors) >= MaxVisitorsPerNetwork {
			if !n.warned && b.OnFull != nil {
				n.warned = true
				private := false
				if p, err := netip.ParsePrefix(network); err == nil {
					private = p.Addr().IsPrivate() || p.Addr().IsLoopback()
				} else if a, err := netip.ParseAddr(network); err == nil {
					private = a.IsPrivate() || a.IsLoopback()
				}
				go b.OnFull(network, private)
			}
			return nil
		}
		v := &visitorDay{id: e.Visitor}
		n.visitors = append(n.visitors, v)
		return v
	}
	switch e.Kind {
	case db.EventPageview:
		v := visitor(true)
		if v == nil || v.pageviews >= MaxPageviewsPerVisitor {
			return false
		}
		v.pageviews++
	case db.EventNotFound:
		if n.notFound >= MaxNotFoundPerNetwork {
			return false
		}
		n.notFound++
	case db.EventTelClick:
		if n.taps >= MaxActionsPerNetwork {
			return false
		}
		n.taps++
	case db.EventFormView:
		if n.forms >= MaxActionsPerNetwork {
			return false
		}
		n.forms++
	case db.EventVital:
		m := metricIndex(e.Metric)
		v := visitor(false)
		if m < 0 || v == nil || n.vitals[m] >= MaxVitalsPerNetwork {
			return false
		}
		h := fnv.New32a()
		h.Write([]byte(e.Path))
		k := vitalKey{metric: uint8(m), page: h.Sum32()}
		if v.vitals == nil {
			v.vitals = map[vitalKey]uint8{}
		}
		if v.vitals[k] >= MaxVitalsPerPage {
			return false
		}
		v.vitals[k]++
		n.vitals[m]++
	default:
		return false
	}
	return true
}
