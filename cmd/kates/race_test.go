//go:build race

package main

// Under `go test -race` the binary the tests run is built with the race detector too, so a race
// in the CLI's own goroutines (the live table, the wait's progress) fails the test that hit it.
func init() { buildFlags = append(buildFlags, "-race") }
