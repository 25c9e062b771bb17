package protodecode

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Decoding a list as it streams in.
//
// A LIST response of tens of thousands of objects takes the API server and the wire a while to
// hand over; read whole and then decoded, the client's decoding follows the transfer instead of
// overlapping it. DecodeList reads the response's protobuf as it arrives and decodes each item
// on another goroutine as soon as its bytes are in, so that decoding runs beside the transfer
// (and the gzip and TLS work of reading it) and ends shortly after the last byte.

// ErrNotProtobufList is DecodeList's error for a response that is not an enveloped protobuf
// list it can stream (an envelope with a content encoding, say): the caller lists again
// another way.
var ErrNotProtobufList = errors.New("protodecode: not a protobuf list this decoder streams")

// listItemsField is the items field of every generated List message (ListMeta is field 1).
const listItemsField = 2

// DecodeList reads a protobuf LIST response body from r (the "k8s\x00" prefix and a
// runtime.Unknown whose raw is the list message) and decodes its items, of kind gvk, into the
// scheme's type for it, as d would decode an object of that kind, passing each to add in the
// order the server sent them (add runs on one goroutine at a time, not the caller's). It
// returns the list's ListMeta. keep, if not nil, is asked first with each item's bytes, and an
// item it refuses is neither decoded nor passed to add: a caller that would drop the object
// (another replica's, see ReadItemMeta) pays for reading it, not for decoding it.
func (d *ObjectDecoder) DecodeList(r io.Reader, gvk schema.GroupVersionKind, keep func(item []byte) bool, add func(runtime.Object)) (metav1.ListMeta, error) {
	var lm metav1.ListMeta
	t, known := d.scheme.AllKnownTypes()[gvk]
	if !known {
		return lm, fmt.Errorf("%w: %s is not registered", ErrNotProtobufList, gvk)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	prefix := make([]byte, len(protobufPrefix))
	if _, err := io.ReadFull(br, prefix); err != nil {
		return lm, err
	}
	if string(prefix) != string(protobufPrefix) {
		return lm, ErrNotProtobufList
	}

	items := make(chan *[]byte, 256)
	var (
		decodeErr error
		wg        sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for b := range items {
			if decodeErr == nil && (keep == nil || keep(*b)) {
				obj, err := d.scheme.New(gvk)
				if err == nil {
					u, ok := obj.(unmarshaler)
					if !ok {
						err = fmt.Errorf("%w: %s has no Unmarshal", ErrNotProtobufList, t)
					} else if err = d.unmarshal(*b, t, obj, u); err == nil {
						obj.GetObjectKind().SetGroupVersionKind(gvk)
						add(obj)
					}
				}
				decodeErr = err
			}
			itemBuffers.Put(b)
		}
	}()
	lm, err := readList(br, items)
	close(items)
	wg.Wait()
	if err != nil {
		return lm, err
	}
	return lm, decodeErr
}

var itemBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// readList reads the runtime.Unknown envelope from br and, inside its raw field, the list
// message, sending each item's bytes to items.
func readList(br *bufio.Reader, items chan<- *[]byte) (metav1.ListMeta, error) {
	var lm metav1.ListMeta
	for {
		num, typ, err := readTag(br)
		if err == io.EOF {
			return lm, nil
		}
		if err != nil {
			return lm, err
		}
		if typ != protowire.BytesType {
			return lm, ErrNotProtobufList
		}
		n, err := binaryUvarint(br)
		if err != nil {
			return lm, err
		}
		switch num {
		case 2: // raw: the list message
			if err := readListMessage(br, int64(n), &lm, items); err != nil {
				return lm, err
			}
		case 3, 4: // contentEncoding, contentType: only empty ones are streamed
			if n != 0 {
				return lm, ErrNotProtobufList
			}
		default: // typeMeta
			if _, err := br.Discard(int(n)); err != nil {
				return lm, err
			}
		}
	}
}

// readListMessage reads a list message of size bytes: its ListMeta into lm, each item's bytes
// to items.
func readListMessage(br *bufio.Reader, size int64, lm *metav1.ListMeta, items chan<- *[]byte) error {
	for size > 0 {
		num, typ, tagLen, err := readTagCounted(br)
		if err != nil {
			return unexpected(err)
		}
		size -= int64(tagLen)
		if typ != protowire.BytesType {
			// Lists carry only length-delimited fields; anything else is not ours to stream.
			return ErrNotProtobufList
		}
		n, lenLen, err := uvarintCounted(br)
		if err != nil {
			return unexpected(err)
		}
		size -= int64(lenLen)
		if int64(n) > size {
			return io.ErrUnexpectedEOF
		}
		size -= int64(n)
		b := itemBuffers.Get().(*[]byte)
		if cap(*b) < int(n) {
			*b = make([]byte, n)
		}
		*b = (*b)[:n]
		if _, err := io.ReadFull(br, *b); err != nil {
			itemBuffers.Put(b)
			return unexpected(err)
		}
		switch num {
		case listItemsField:
			items <- b
		case objectMetaField:
			err := lm.Unmarshal(*b)
			itemBuffers.Put(b)
			if err != nil {
				return err
			}
		default:
			itemBuffers.Put(b)
		}
	}
	return nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func readTag(br *bufio.Reader) (protowire.Number, protowire.Type, error) {
	num, typ, _, err := readTagCounted(br)
	return num, typ, err
}

func readTagCounted(br *bufio.Reader) (protowire.Number, protowire.Type, int, error) {
	v, n, err := uvarintCounted(br)
	if err != nil {
		return 0, 0, n, err
	}
	num, typ := protowire.DecodeTag(v)
	if num < protowire.MinValidNumber {
		return 0, 0, n, ErrNotProtobufList
	}
	return num, typ, n, nil
}

func binaryUvarint(br *bufio.Reader) (uint64, error) {
	v, _, err := uvarintCounted(br)
	return v, err
}

// uvarintCounted reads a varint and says how many bytes it took; io.EOF only if none was read.
func uvarintCounted(br *bufio.Reader) (uint64, int, error) {
	var v uint64
	for i := 0; i < 10; i++ {
		c, err := br.ReadByte()
		if err != nil {
			if i > 0 && err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, i, err
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1, nil
		}
	}
	return 0, 10, ErrNotProtobufList
}
