package zstdcompact

import (
	"errors"
	"fmt"
	"slices"

	"github.com/klauspost/compress/zstd"

	"github.com/kates-dev/kates/accumulator"
)

// dictID names the dictionary in each frame. Every query has its own decoder, which knows
// only its own dictionary, so one ID serves all.
const dictID = 1

// MaxDecoded bounds what one object may decompress to, so that a corrupt frame claiming a
// huge size cannot make a decode allocate it. The API server refuses objects far smaller.
const MaxDecoded = 64 << 20

// window is the encoder's window: how far back a match may reach. Objects are small, so a
// larger window would find little more, and it sizes the encoder's buffers.
const window = 32 << 10

// maxDict bounds the dictionary: the first object's encoding, or its first maxDict bytes.
const maxDict = window / 2

// New returns a Compressor for accumulator.Options.Compressor and kates.WatchOptions.
func New() accumulator.Compressor { return compressor{} }

type compressor struct{}

// codec is one query's: an encoder and a decoder that share its dictionary. EncodeAll and
// DecodeAll are safe for concurrent use.
type codec struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

// NewCodec makes the codec of one query, with (a copy of) first as its dictionary.
func (compressor) NewCodec(first []byte) (accumulator.Codec, error) {
	dict := slices.Clone(first[:min(len(first), maxDict)])
	// The encoder's tables and history are the codec's fixed cost, once per query: one
	// encoder (objects are compacted in each query's reflector goroutine, one at a time),
	// the fastest level and a small window keep it under a megabyte, where zstd's defaults
	// take 11 MB. No checksum: the bytes never leave memory.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(dictID, dict), zstd.WithEncoderCRC(false),
		zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true), zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithWindowSize(window))
	if err != nil {
		return nil, fmt.Errorf("zstd encoder: %w", err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(dictID, dict), zstd.WithDecoderMaxMemory(MaxDecoded),
		zstd.WithDecoderLowmem(true))
	if err != nil {
		return nil, fmt.Errorf("zstd decoder: %w", err)
	}
	return &codec{enc: enc, dec: dec}, nil
}

func (c *codec) Compress(dst, src []byte) []byte { return c.enc.EncodeAll(src, dst) }

// errEmpty is Decompress's error for no bytes at all, which zstd reads as no frames and so as
// nothing: never what Compress made, so an object cut to its head.
var errEmpty = errors.New("zstd: no frame")

func (c *codec) Decompress(dst, src []byte) ([]byte, error) {
	if len(src) == 0 {
		return dst, errEmpty
	}
	out, err := c.dec.DecodeAll(src, dst)
	if err != nil {
		return out, fmt.Errorf("zstd: %w", err)
	}
	return out, nil
}
