package kstatus

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// scanned is what jsonScanner.conditions returns, in a form cmp can compare.
type scanned struct {
	OK     bool
	N      int
	A, B   [4]string // found, status, reason, message
	Failed bool
}

func scanWith(raw string) scanned {
	sc := jsonScanner{s: raw}
	a, b, n, ok := sc.conditions("AbleToScale", "ScalingActive")
	if !ok {
		return scanned{}
	}
	return scanned{OK: true, N: n, A: condFields(a), B: condFields(b)}
}

func condFields(c condition) [4]string {
	if !c.found {
		return [4]string{}
	}
	return [4]string{"found", c.status, c.reason, c.message}
}

// scanReference is what the scanner must agree with: encoding/json, then the rules the
// scanner documents.
func scanReference(raw string) scanned {
	// UseNumber: a number beyond float64 is valid JSON, which the scanner only skips.
	var list []any
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&list); err != nil || list == nil || d.InputOffset() != int64(len(strings.TrimRight(raw, " \t\r\n"))) {
		return scanned{}
	}
	out := scanned{OK: true, N: len(list)}
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return scanned{}
		}
		var c [4]string
		c[0] = "found"
		for i, k := range [...]string{"status", "reason", "message"} {
			v, present := m[k]
			s, isString := v.(string)
			if present && !isString {
				return scanned{}
			}
			c[i+1] = s
		}
		switch t, _ := m["type"].(string); {
		case t == "AbleToScale" && out.A[0] == "":
			out.A = c
		case t == "ScalingActive" && out.B[0] == "":
			out.B = c
		}
	}
	return out
}

func TestJSONScannerConditions(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want scanned
	}{
		{"empty list", `[]`, scanned{OK: true}},
		{"as the API server writes it", `[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-03-01T10:00:00Z","reason":"SucceededGetScale","message":"the HPA controller was able to get the target's current scale"},{"type":"ScalingActive","status":"False","lastTransitionTime":"2026-03-01T10:00:00Z","reason":"FailedGetResourceMetric","message":"no metrics"}]`,
			scanned{OK: true, N: 2, A: [4]string{"found", "True", "SucceededGetScale", "the HPA controller was able to get the target's current scale"}, B: [4]string{"found", "False", "FailedGetResourceMetric", "no metrics"}}},
		{"escapes and spaces", " [ { \"type\" : \"AbleToScale\" , \"status\" : \"False\", \"message\": \"target \\\"web\\\" not found \\u00e9\" } ] ",
			scanned{OK: true, N: 1, A: [4]string{"found", "False", "", "target \"web\" not found é"}}},
		{"other keys of every kind", `[{"type":"ScalingLimited","n":-1.5e3,"o":{"a":[true,false,null,{}]},"l":[]},{"type":"ScalingActive","status":"True"}]`,
			scanned{OK: true, N: 2, B: [4]string{"found", "True", "", ""}}},
		{"first of a type wins", `[{"type":"AbleToScale","status":"True"},{"type":"AbleToScale","status":"False"}]`,
			scanned{OK: true, N: 2, A: [4]string{"found", "True", "", ""}}},
		{"type not a string matches nothing", `[{"type":1,"status":"False"}]`, scanned{OK: true, N: 1}},
		{"status not a string", `[{"type":"AbleToScale","status":false}]`, scanned{}},
		{"not a list", `{"type":"AbleToScale"}`, scanned{}},
		{"truncated", `[{"type":"AbleToScale"`, scanned{}},
		{"trailing text", `[] x`, scanned{}},
		{"entry not an object", `["AbleToScale"]`, scanned{}},
		{"bad literal", `[{"type":"AbleToScale","n":inf}]`, scanned{}},
		{"bad number", `[{"type":"AbleToScale","n":01}]`, scanned{}},
		{"number beyond float64", `[{"type":"ScalingActive","x":-2.5e831}]`, scanned{OK: true, N: 1, B: [4]string{"found", "", "", ""}}},
		{"trailing comma", `[{"type":"AbleToScale"},]`, scanned{}},
		{"control character in string", "[{\"type\":\"Able\nToScale\"}]", scanned{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, scanWith(tt.raw)); diff != "" {
				t.Errorf("conditions() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(scanReference(tt.raw), scanWith(tt.raw)); diff != "" {
				t.Errorf("conditions() disagrees with encoding/json (-json +scanner):\n%s", diff)
			}
		})
	}
}

// FuzzJSONScannerConditions checks that the scanner agrees with encoding/json on any
// text: it may neither accept what is not JSON nor read a condition differently.
func FuzzJSONScannerConditions(f *testing.F) {
	for _, s := range []string{`[]`, `[{"type":"AbleToScale","status":"True","reason":"r","message":"m \"q\""}]`,
		`[{"type":"ScalingActive","x":[1,-2.5e-3,{"y":null}]}]`, `[{"type":1}]`, ` [ ] `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if !utf8.ValidString(raw) {
			return // encoding/json replaces invalid UTF-8; the scanner keeps it as written
		}
		if diff := cmp.Diff(scanReference(raw), scanWith(raw)); diff != "" {
			t.Errorf("conditions(%q) disagrees with encoding/json (-json +scanner):\n%s", raw, diff)
		}
	})
}
