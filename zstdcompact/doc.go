// Package zstdcompact holds compact views' objects compressed with zstd
// (github.com/klauspost/compress), for programs that trade CPU for memory on large views:
//
//	opts := kates.WatchOptions{Snapshot: (*snapshot)(nil), Compressor: zstdcompact.New()}
//
// Each query's objects are compressed against a raw dictionary (zstd's "content prefix":
// history the encoder may refer back to, with no trained tables) that is the protobuf
// encoding of the first object the query compacts: objects of one kind repeat most of their
// bytes (field tags, label and annotation keys, a workload's Pod template, image names),
// which zstd on one object alone would not find (a ConfigMap of testdata/realistic: 1,847
// bytes to 638 alone). The dictionary is one object's bytes per query, kept for the store's
// life.
//
// It is a package of its own so that a program that never compresses does not link zstd
// (0.7 MB): package accumulator declares the Compressor and Codec interfaces, and this
// package is their one implementation kates ships. The README's "Compressed compact views"
// has the measured figures.
package zstdcompact
