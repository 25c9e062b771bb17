package kates

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// ManifestError is the error ParseManifests returns for a bad document. Document counts from 1
// in the order documents appear ("---"-separated YAML, or the elements of a JSON stream or array).
type ManifestError struct {
	Document int
	Err      error
}

func (e *ManifestError) Error() string { return fmt.Sprintf("document %d: %v", e.Document, e.Err) }
func (e *ManifestError) Unwrap() error { return e.Err }

// ParseManifests reads Kubernetes objects from text: multi-document YAML, a JSON object, a stream
// of JSON objects or a JSON array. A document of kind List (v1 List, or any *List kind with
// items) contributes its items. Objects whose kind kates.Scheme knows come back typed (a
// *kates.Deployment), the rest as *kates.Unstructured. Empty documents and comment-only documents
// are skipped.
//
// Every document must have apiVersion and kind. The first bad document stops parsing with a
// *ManifestError naming it; nothing is returned then, so a caller never applies half a file.
func ParseManifests(text string) ([]Object, error) {
	docs, err := splitDocuments(text)
	if err != nil {
		return nil, err
	}
	var out []Object
	for i, doc := range docs {
		objs, err := parseDocument(doc)
		if err != nil {
			return nil, &ManifestError{Document: i + 1, Err: err}
		}
		for _, u := range objs {
			typed, err := NewObjectFromUnstructured(u)
			if err != nil {
				return nil, &ManifestError{Document: i + 1, Err: fmt.Errorf("%s: %w", describe(u), err)}
			}
			out = append(out, typed)
		}
	}
	return out, nil
}

// ManifestObject is one object of a manifest as written, with the document it came from
// (counting from 1, as ManifestError does).
type ManifestObject struct {
	// Source names where the manifest was read from (a file, a URL), for messages; the parse
	// functions leave it empty for the caller to fill in.
	Source   string
	Document int
	Object   *unstructured.Unstructured
}

// ParseUnstructuredManifests reads text as ParseManifests does, with the same errors, but
// returns every object as written, none converted to a typed object. Converting drops fields
// the type does not have and fails on values of the wrong type, so this is the form to
// validate (see Validator) or to apply when the server must see exactly what the author wrote.
func ParseUnstructuredManifests(text string) ([]ManifestObject, error) {
	docs, err := splitDocuments(text)
	if err != nil {
		return nil, err
	}
	var out []ManifestObject
	for i, doc := range docs {
		objs, err := parseDocument(doc)
		if err != nil {
			return nil, &ManifestError{Document: i + 1, Err: err}
		}
		for _, u := range objs {
			out = append(out, ManifestObject{Document: i + 1, Object: u})
		}
	}
	return out, nil
}

// splitDocuments returns each document as JSON.
func splitDocuments(text string) ([][]byte, error) {
	trimmed := strings.TrimSpace(text)
	if strings.HasPrefix(trimmed, "[") {
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(trimmed), &items); err != nil {
			return nil, &ManifestError{Document: 1, Err: fmt.Errorf("invalid JSON array: %w", err)}
		}
		docs := make([][]byte, len(items))
		for i, it := range items {
			docs[i] = it
		}
		return docs, nil
	}
	if strings.HasPrefix(trimmed, "{") {
		// A stream of JSON objects.
		dec := json.NewDecoder(strings.NewReader(trimmed))
		var docs [][]byte
		for {
			var raw json.RawMessage
			err := dec.Decode(&raw)
			if errors.Is(err, io.EOF) {
				return docs, nil
			}
			if err != nil {
				return nil, &ManifestError{Document: len(docs) + 1, Err: fmt.Errorf("invalid JSON: %w", err)}
			}
			docs = append(docs, raw)
		}
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(text)))
	var docs [][]byte
	for n := 1; ; n++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, &ManifestError{Document: n, Err: err}
		}
		if isBlankYAML(doc) {
			docs = append(docs, nil) // keep numbering; skipped later
			continue
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, &ManifestError{Document: n, Err: fmt.Errorf("invalid YAML: %w", err)}
		}
		docs = append(docs, j)
	}
}

// isBlankYAML reports whether doc holds only white space and comments.
func isBlankYAML(doc []byte) bool {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' && !bytes.Equal(line, []byte("---")) {
			return false
		}
	}
	return true
}

// parseDocument returns the objects of one document, the items of a List in order.
func parseDocument(doc []byte) ([]*unstructured.Unstructured, error) {
	if len(doc) == 0 || bytes.Equal(bytes.TrimSpace(doc), []byte("null")) {
		return nil, nil
	}
	var obj map[string]any
	// apimachinery's json keeps integers int64, as the API server does: encoding/json would
	// make every number a float64, and large integers would lose digits on the way to apply.
	if err := utiljson.Unmarshal(doc, &obj); err != nil {
		return nil, fmt.Errorf("not an object: %w", err)
	}
	u := &unstructured.Unstructured{Object: obj}
	if u.GetAPIVersion() == "" {
		return nil, fmt.Errorf("%s: missing apiVersion", describe(u))
	}
	if u.GetKind() == "" {
		return nil, fmt.Errorf("%s: missing kind", describe(u))
	}
	if items, isList := obj["items"]; isList && strings.HasSuffix(u.GetKind(), "List") {
		list, ok := items.([]any)
		if !ok && items != nil {
			return nil, fmt.Errorf("%s: items is %T, want a list", u.GetKind(), items)
		}
		var out []*unstructured.Unstructured
		for i, item := range list {
			m, ok := item.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s item %d: not an object", u.GetKind(), i)
			}
			itemJSON, err := json.Marshal(m)
			if err != nil {
				return nil, err
			}
			objs, err := parseDocument(itemJSON)
			if err != nil {
				return nil, fmt.Errorf("%s item %d: %w", u.GetKind(), i, err)
			}
			out = append(out, objs...)
		}
		return out, nil
	}
	if _, err := metaAccessible(u); err != nil {
		return nil, fmt.Errorf("%s: %w", describe(u), err)
	}
	return []*unstructured.Unstructured{u}, nil
}

// metaAccessible checks that metadata has the shape ObjectMeta needs, so a later accessor call
// cannot silently read a malformed field as empty.
func metaAccessible(u *unstructured.Unstructured) (*metav1.ObjectMeta, error) {
	m, ok := u.Object["metadata"]
	if !ok || m == nil {
		return &metav1.ObjectMeta{}, nil
	}
	mm, ok := m.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("metadata is %T, want an object", m)
	}
	var meta metav1.ObjectMeta
	if err := runtimeFromUnstructured(mm, &meta); err != nil {
		return nil, fmt.Errorf("invalid metadata: %w", err)
	}
	return &meta, nil
}

// describe names an object for error messages: "Deployment web" or "Deployment (no name)".
func describe(u *unstructured.Unstructured) string {
	kind := u.GetKind()
	if kind == "" {
		kind = "object"
	}
	name, _, _ := unstructured.NestedString(u.Object, "metadata", "name")
	if name == "" {
		return kind + " (no name)"
	}
	return kind + " " + name
}
