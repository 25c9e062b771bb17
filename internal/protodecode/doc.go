// Package protodecode decodes the API server's protobuf responses and watch frames into Go
// structs with fewer copies than apimachinery's protobuf serializer makes, and can leave
// metadata.managedFields undecoded.
//
// apimachinery decodes each watch frame in three steps: the frame into a metav1.WatchEvent,
// which copies the embedded object's bytes; those bytes into a runtime.Unknown envelope, which
// copies them again; and the envelope's bytes into the object. For a realistic Pod (~7 KB of
// protobuf) that is 14 KB of garbage per event before the object itself is built, which the
// garbage collector then pays for. The decoders here read the frame and the envelope in place
// and unmarshal the object straight from the frame's buffer: the generated Unmarshal methods
// copy every string and byte slice they keep, so nothing decoded aliases a buffer that the
// stream reuses.
//
// A store that strips managedFields after decoding (kates' Watch, by default) also need not
// decode them: they are often the largest part of an object (two thirds of a realistic Pod's
// protobuf), each entry a handful of strings, a time and a raw JSON blob. With
// Options.StripManagedFields, the object's bytes are copied, without ObjectMeta's field 17,
// into a pooled buffer and decoded from there.
//
// CompactItem keeps an object as the bytes it came in, without managedFields, for a view that
// decodes an object only when it is read; DecodeItem decodes such bytes into a new object.
//
// Anything the fast path does not recognise (an envelope with a content encoding, a type the
// scheme does not know, decoding into an object of another type, malformed input) goes to
// apimachinery's own serializer, which decodes it or says what is wrong as it always has.
package protodecode
