package guard

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// ErrPaced is returned when work was refused or gave up waiting for its
// turn.
var ErrPaced = errors.New("guard: too much of this work at once")

// Pacer admits work of one kind server-wide at a bounded rate and
// concurrency, first come first served, so a flood of it can take only
// a bounded share of the CPU, whatever the number of clients. Work whose
// turn is further away than MaxWait is refused at once, without waiting.
type Pacer struct {
	rate    *rate.Limiter
	slots   chan struct{}
	MaxWait time.Duration

	// waiting counts work waiting for its turn; refused what was turned
	// away (Stats, for /metrics).
	waiting atomic.Int64
	refused atomic.Uint64
}

// PacerStats are a pacer's counts: work waiting for its turn now, work
// running now, and work refused since the start.
type PacerStats struct {
	Waiting, Running int
	Refused          uint64
}

// Stats reads the pacer's counts.
func (p *Pacer) Stats() PacerStats {
	return PacerStats{Waiting: int(p.waiting.Load()), Running: len(p.slots), Refused: p.refused.Load()}
}

// NewPacer starts at most perSecond runs a second (burst at once after a
// quiet spell) and at most concurrent runs at the same time.
func NewPacer(perSecond float64, burst, concurrent int, maxWait time.Duration) *Pacer {
	return &Pacer{rate: rate.NewLimiter(rate.Limit(perSecond), max(1, burst)), slots: make(chan struct{}, max(1, concurrent)), MaxWait: maxWait}
}

// Do runs fn at its turn. It returns ErrPaced, and fn has not run, when
// the turn is further than MaxWait away, or ctx ends or MaxWait passes
// before a run slot frees up.
func (p *Pacer) Do(ctx context.Context, fn func()) error {
	err := p.do(ctx, fn)
	if err != nil {
		p.refused.Add(1)
	}
	return err
}

func (p *Pacer) do(ctx context.Context, fn func()) error {
	p.waiting.Add(1)
	waiting := true
	done := func() {
		if waiting {
			waiting = false
			p.waiting.Add(-1)
		}
	}
	defer done()
	start := time.Now()
	r := p.rate.ReserveN(start, 1)
	if !r.OK() {
		return ErrPaced
	}
	d := r.DelayFrom(start)
	if d > p.MaxWait {
		r.CancelAt(start)
		return ErrPaced
	}
	if d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ErrPaced
		}
	}
	select {
	case p.slots <- struct{}{}:
	default:
		t := time.NewTimer(p.MaxWait - time.Since(start))
		defer t.Stop()
		select {
		case p.slots <- struct{}{}:
		case <-t.C:
			return ErrPaced
		case <-ctx.Done():
			return ErrPaced
		}
	}
	done()
	defer func() { <-p.slots }()
	fn()
	return nil
}

// Concurrent is the number of runs allowed at once.
func (p *Pacer) Concurrent() int { return cap(p.slots) }

// Rate is the number of runs started per second at most.
func (p *Pacer) Rate() float64 { return float64(p.rate.Limit()) }
