package kates

import (
	"encoding/json"
	"math"
)

// isJSONValue reports whether v holds only what JSON decodes into, which is what Unstructured's
// deep copy accepts.
func isJSONValue(v any) bool {
	switch x := v.(type) {
	case nil, string, bool, int64, float64, json.Number:
		return true
	case map[string]any:
		for _, e := range x {
			if !isJSONValue(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !isJSONValue(e) {
				return false
			}
		}
		return true
	}
	return false
}

// integers turns whole float64 numbers into int64 in place. The API server decodes JSON
// integers as int64, and CEL rules, unlike the schema validator, tell the two apart; a map built
// by encoding/json or YAML has float64 for every number.
func integers(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if f, ok := e.(float64); ok {
				if i, ok := wholeNumber(f); ok {
					x[k] = i
				}
				continue
			}
			integers(e)
		}
	case []any:
		for k, e := range x {
			if f, ok := e.(float64); ok {
				if i, ok := wholeNumber(f); ok {
					x[k] = i
				}
				continue
			}
			integers(e)
		}
	}
}

func wholeNumber(f float64) (int64, bool) {
	if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}
