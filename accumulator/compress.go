package accumulator

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/encoding/protowire"
)

// Compressed compact objects (Options.CompressCompact).
//
// Objects of one query repeat most of their bytes: field tags, label and annotation keys, a
// workload's Pod template, the same image names. zstd on one object alone finds little of
// that (a ConfigMap of testdata/realistic: 1,847 B to 638), so each query compresses against
// a raw dictionary (zstd's "content prefix": history the encoder may refer back to, with no
// trained tables) that is the protobuf encoding of the first object the query compacts. The
// dictionary is set once and never changed, so that every object of the query decodes with
// the same decoder for the store's life, and it costs one object's bytes per query.
//
// A compressed object keeps a small uncompressed head beside the frame: an encoded object
// whose metadata holds only name, namespace and resource version, so that Name, Namespace and
// ResourceVersion still read without decompressing, as they do from an uncompressed encoding.
// Status is computed before the object is encoded, as without compression.

// zdictID names the dictionary in each frame. Every query has its own decoder, which knows
// only its own dictionary, so one ID serves all.
const zdictID = 1

// zmaxDecoded bounds what one frame may decompress to, so that a corrupt frame claiming a
// huge size cannot make DecodeAll allocate it. The API server refuses objects far smaller.
const zmaxDecoded = 64 << 20

// zwindow is the encoder's window: how far back a match may reach. Objects are small, so a
// larger window would find little more, and it sizes the encoder's buffers.
const zwindow = 32 << 10

// zmaxDict bounds the dictionary: the first object's encoding, or its first zmaxDict bytes.
const zmaxDict = zwindow / 2

// zcodec compresses one query's compact objects. Its state is made from the first object it
// compresses, once; it is safe for concurrent use (EncodeAll and DecodeAll are).
type zcodec struct {
	mu    sync.Mutex
	state atomic.Pointer[zstate]
}

type zstate struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

// errNoDictionary is decompress's error for a frame of a codec that has compressed nothing:
// only a corrupt object can hold one.
var errNoDictionary = errors.New("accumulator: compressed compact object of a query that has compressed none")

// stateFor returns z's state, making it with first (a protobuf message, copied) as the
// dictionary if there is none yet.
func (z *zcodec) stateFor(first []byte) (*zstate, error) {
	if s := z.state.Load(); s != nil {
		return s, nil
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if s := z.state.Load(); s != nil {
		return s, nil
	}
	dict := slices.Clone(first[:min(len(first), zmaxDict)])
	// The encoder's tables and history are the codec's fixed cost, once per query: one
	// encoder (objects are compacted in each query's reflector goroutine, one at a time),
	// the fastest level and a small window keep it under a megabyte, where zstd's defaults
	// take 11 MB. No checksum: the bytes never leave memory.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(zdictID, dict), zstd.WithEncoderCRC(false),
		zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true), zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithWindowSize(zwindow))
	if err != nil {
		return nil, fmt.Errorf("zstd encoder: %w", err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(zdictID, dict), zstd.WithDecoderMaxMemory(zmaxDecoded),
		zstd.WithDecoderLowmem(true))
	if err != nil {
		return nil, fmt.Errorf("zstd decoder: %w", err)
	}
	s := &zstate{enc: enc, dec: dec}
	z.state.Store(s)
	return s, nil
}

// sizedMarshaler is what the generated types of built-in kinds implement besides Marshal:
// encoding into a buffer of the caller's.
type sizedMarshaler interface {
	Size() int
	MarshalToSizedBuffer([]byte) (int, error)
}

// zbufs holds buffers for encodings and decompressed messages, which live only while an
// object is compacted or decoded.
var zbufs = sync.Pool{New: func() any { return new([]byte) }}

// zbufMax is the largest buffer zbufs keeps.
const zbufMax = 1 << 20

func releaseBuf(b *[]byte) {
	if b != nil && cap(*b) <= zbufMax {
		zbufs.Put(b)
	}
}

// compact encodes m and returns it compressed, with its head; status and kind are the
// caller's to set.
func (z *zcodec) compact(m protoMarshaler) (*compactObject, error) {
	buf := zbufs.Get().(*[]byte)
	defer releaseBuf(buf)
	var plain []byte
	if sm, ok := m.(sizedMarshaler); ok {
		n := sm.Size()
		if cap(*buf) < n {
			*buf = make([]byte, n)
		}
		plain = (*buf)[:n]
		w, err := sm.MarshalToSizedBuffer(plain)
		if err != nil {
			return nil, err
		}
		plain = plain[n-w:]
	} else {
		var err error
		if plain, err = m.Marshal(); err != nil {
			return nil, err
		}
	}
	s, err := z.stateFor(plain)
	if err != nil {
		return nil, err
	}
	head := appendHead(make([]byte, 0, 64), plain)
	out := zbufs.Get().(*[]byte)
	defer releaseBuf(out)
	*out = s.enc.EncodeAll(plain, (*out)[:0])
	data := make([]byte, len(head)+len(*out))
	copy(data, head)
	copy(data[len(head):], *out)
	return &compactObject{data: data, zhead: int32(len(head))}, nil
}

// headFields are the ObjectMeta fields a compressed object's head keeps.
var headFields = [...]protowire.Number{metaNameField, metaNamespaceField, metaResourceVersionField}

// appendHead appends to b an encoded object whose metadata (field 1) holds plain's name,
// namespace and resource version alone. It is never empty: the metadata field is written even
// if plain has none, so that a compressed object's head has a length.
func appendHead(b, plain []byte) []byte {
	var inner [3][]byte
	size := 0
	if meta, ok := bytesField(plain, objectMetaField); ok {
		for i, num := range headFields {
			if v, ok := bytesField(meta, num); ok {
				inner[i] = v
				size += protowire.SizeTag(num) + protowire.SizeBytes(len(v))
			}
		}
	}
	b = protowire.AppendTag(b, objectMetaField, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(size))
	for i, num := range headFields {
		if inner[i] != nil {
			b = protowire.AppendTag(b, num, protowire.BytesType)
			b = protowire.AppendBytes(b, inner[i])
		}
	}
	return b
}

// message returns the object's protobuf message: its data, or, for a compressed object, the
// data decompressed into a pooled buffer, which the caller gives back with releaseBuf once it
// has decoded what it needs (buf is nil when there is none).
func (co *compactObject) message() (msg []byte, buf *[]byte, err error) {
	if co.zhead <= 0 {
		return co.data, nil, nil
	}
	if co.kind == nil || co.kind.z == nil || int(co.zhead) > len(co.data) {
		return nil, nil, fmt.Errorf("accumulator: compact %s: not a compressed object", co.kindName())
	}
	s := co.kind.z.state.Load()
	if s == nil {
		return nil, nil, errNoDictionary
	}
	buf = zbufs.Get().(*[]byte)
	*buf, err = s.dec.DecodeAll(co.data[co.zhead:], (*buf)[:0])
	if err != nil {
		return nil, buf, fmt.Errorf("accumulator: decompress compact %s: %w", co.kindName(), err)
	}
	return *buf, buf, nil
}

func (co *compactObject) kindName() string {
	if co.kind == nil {
		return "object"
	}
	return co.kind.gvk.Kind
}
