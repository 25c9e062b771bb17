package accumulator

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/encoding/protowire"
)

// Compressed compact objects (Options.Compressor).
//
// Objects of one query repeat most of their bytes: field tags, label and annotation keys, a
// workload's Pod template, the same image names. A compressor working on one object alone
// finds little of that, so each query has a Codec of its own, made from the protobuf encoding
// of the first object the query compacts, which the codec may keep as its dictionary. The
// codec is made once and never changed, so that every object of the query decodes with the
// same codec for the store's life.
//
// A compressed object keeps a small uncompressed head beside the compressed bytes: an encoded
// object whose metadata holds only name, namespace and resource version, so that Name,
// Namespace and ResourceVersion still read without decompressing, as they do from an
// uncompressed encoding. Status is computed before the object is encoded, as without
// compression.
//
// The codec itself lives outside this package (package zstdcompact holds the one kates
// ships, with zstd), so that a program that never compresses does not link a compression
// library.

// A Compressor makes the Codec of each query whose compact objects are held compressed
// (Options.Compressor). Package github.com/kates-dev/kates/zstdcompact provides one.
type Compressor interface {
	// NewCodec returns the codec for one query's objects. first is the protobuf encoding of
	// the first object the query compacts; the codec may keep a copy of it (or of a part)
	// as its dictionary, but must not keep first itself, which is reused. It is called once
	// per query, from the goroutine that compacts the query's objects.
	NewCodec(first []byte) (Codec, error)
}

// A Codec compresses and decompresses one query's objects. Its methods must be safe for
// concurrent use: a query's objects are compacted on one goroutine, but snapshots are read
// (and their objects decompressed) from any number.
type Codec interface {
	// Compress appends src, compressed, to dst and returns the result.
	Compress(dst, src []byte) []byte
	// Decompress appends src, decompressed, to dst and returns the result; an error if src
	// is not what Compress made (a damaged object), or would decompress to more than the
	// codec allows.
	Decompress(dst, src []byte) ([]byte, error)
}

// zcodec holds one query's Codec, made by its Compressor from the first object it compacts.
type zcodec struct {
	c     Compressor
	mu    sync.Mutex
	codec atomic.Pointer[Codec]
}

// errNoDictionary is decompress's error for an object of a query that has compressed
// nothing: only a corrupt object can be one.
var errNoDictionary = errors.New("accumulator: compressed compact object of a query that has compressed none")

// codecFor returns z's codec, making it from first (a protobuf message) if there is none yet.
func (z *zcodec) codecFor(first []byte) (Codec, error) {
	if c := z.codec.Load(); c != nil {
		return *c, nil
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if c := z.codec.Load(); c != nil {
		return *c, nil
	}
	c, err := z.c.NewCodec(first)
	if err != nil {
		return nil, fmt.Errorf("accumulator: compressor: %w", err)
	}
	if c == nil {
		return nil, errors.New("accumulator: compressor made no codec")
	}
	z.codec.Store(&c)
	return c, nil
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
	c, err := z.codecFor(plain)
	if err != nil {
		return nil, err
	}
	head := appendHead(make([]byte, 0, 64), plain)
	out := zbufs.Get().(*[]byte)
	defer releaseBuf(out)
	*out = c.Compress((*out)[:0], plain)
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
	if co.kind == nil || co.kind.z == nil || int(co.zhead) >= len(co.data) {
		// (A head with nothing after it is an object cut short: no codec's output is empty.)
		return nil, nil, fmt.Errorf("accumulator: compact %s: not a compressed object", co.kindName())
	}
	c := co.kind.z.codec.Load()
	if c == nil {
		return nil, nil, errNoDictionary
	}
	buf = zbufs.Get().(*[]byte)
	*buf, err = (*c).Decompress((*buf)[:0], co.data[co.zhead:])
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
