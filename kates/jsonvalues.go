package kates

import (
	"encoding/json"
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
