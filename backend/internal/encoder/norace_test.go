//go:build !race

package encoder

const raceEnabled = false
