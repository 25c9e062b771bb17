package kates

// SetShardWarn replaces the warning of a server without the shard gate, for tests, and returns
// a function that restores it.
func SetShardWarn(warn func(format string, args ...any)) (restore func()) {
	old := shardWarn
	shardWarn = warn
	return func() { shardWarn = old }
}

// ResetMislabeledWarning lets the next mislabeled object be warned of at once, for tests.
func ResetMislabeledWarning() { mislabeledWarned.Store(0) }
