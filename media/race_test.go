//go:build race

package media

// raceEnabled: the race detector changes allocations (sync.Pool keeps
// nothing), so allocation measurements are skipped under it.
const raceEnabled = true
