package managedfields

import "testing"

func TestSpecEntry(t *testing.T) {
	for _, tc := range []struct {
		name  string
		entry any
		want  bool
	}{
		{"spec write", map[string]any{"manager": "kubectl", "fieldsV1": map[string]any{"f:spec": map[string]any{}}}, true},
		{"status subresource", map[string]any{"subresource": "status", "fieldsV1": map[string]any{"f:spec": map[string]any{}}}, false},
		{"metadata only", map[string]any{"fieldsV1": map[string]any{"f:metadata": map[string]any{}}}, false},
		{"no fields", map[string]any{"manager": "kubectl"}, false},
		{"not an object", "kubectl", false},
		{"nil", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, got := SpecEntry(tc.entry); got != tc.want {
				t.Errorf("SpecEntry(%v) = %v, want %v", tc.entry, got, tc.want)
			}
		})
	}
}
