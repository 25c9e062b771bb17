package kates

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"k8s.io/client-go/util/jsonpath"
)

// JSONPath is a parsed JSONPath template as kubectl takes it in -o jsonpath=... and wait
// --for=jsonpath=... (client-go's k8s.io/client-go/util/jsonpath): expressions in braces,
// literal text between them ("{.metadata.name}{\"\\n\"}", "{range .items[*]}{.name} {end}").
// The expression of a wait goal and an output template are parsed here, by the same parser.
type JSONPath struct {
	template string
	path     *jsonpath.JSONPath
}

// ParseJSONPath parses template. A key the object lacks gives nothing rather than an error, as
// with kubectl's -o jsonpath.
func ParseJSONPath(template string) (*JSONPath, error) {
	p := jsonpath.New("kates").AllowMissingKeys(true)
	if err := p.Parse(template); err != nil {
		return nil, fmt.Errorf("kates: jsonpath %q: %w", template, err)
	}
	return &JSONPath{template: template, path: p}, nil
}

// String returns the template as given.
func (p *JSONPath) String() string { return p.template }

// Execute writes the template's text for obj. obj is anything that encodes to JSON (an
// object, an *Unstructured, an ObjectStatus): the template sees it as its JSON, so the names
// are the JSON field names ({.status} of an ObjectStatus, not {.Status}).
func (p *JSONPath) Execute(w io.Writer, obj any) error {
	data, err := jsonValue(obj)
	if err != nil {
		return err
	}
	if err := p.path.Execute(w, data); err != nil {
		return fmt.Errorf("kates: jsonpath %q: %w", p.template, err)
	}
	return nil
}

// values returns the results of the template's expressions on obj, flattened, skipping
// invalid (missing) ones.
func (p *JSONPath) values(obj any) ([]any, error) {
	data, err := jsonValue(obj)
	if err != nil {
		return nil, err
	}
	results, err := p.path.FindResults(data)
	if err != nil {
		return nil, err
	}
	var vals []any
	for _, r := range results {
		for _, v := range r {
			if v.IsValid() && v.CanInterface() {
				vals = append(vals, v.Interface())
			}
		}
	}
	return vals, nil
}

// jsonValue turns obj into the generic form the jsonpath package walks: maps, slices and
// scalars as encoding/json decodes them. An unstructured object or map is used as it is.
func jsonValue(obj any) (any, error) {
	switch o := obj.(type) {
	case map[string]any:
		return o, nil
	case interface{ UnstructuredContent() map[string]any }:
		return o.UnstructuredContent(), nil
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Interface {
		return obj, nil
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("kates: jsonpath: %w", err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("kates: jsonpath: %w", err)
	}
	return out, nil
}
