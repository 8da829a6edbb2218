//go:build race

package encoder

// raceEnabled: the race detector makes sync.Pool drop items, so Embed allocates under it.
const raceEnabled = true
