package server

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// LogWriter buffers log output and flushes it every interval (or when the
// buffer fills), so a busy server does not pay one write system call per
// request line. Close flushes what is left.
type LogWriter struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

// NewLogWriter starts the periodic flush.
func NewLogWriter(out io.Writer, interval time.Duration) *LogWriter {
	l := &LogWriter{w: bufio.NewWriterSize(out, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				l.Flush()
			case <-l.stop:
				l.Flush()
				return
			}
		}
	}()
	return l
}

func (l *LogWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Flush writes buffered lines out.
func (l *LogWriter) Flush() {
	l.mu.Lock()
	l.w.Flush()
	l.mu.Unlock()
}

// Close stops the flusher and flushes.
func (l *LogWriter) Close() error {
	close(l.stop)
	<-l.done
	return nil
}
