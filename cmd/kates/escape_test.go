package main

import (
	"strings"
	"testing"

	"k8s.io/client-go/rest"

	"github.com/google/go-cmp/cmp"

	"github.com/kates-dev/kates/kates"
)

func TestForTerminal(t *testing.T) {
	tests := []struct {
		name, in, want, wantLines string
	}{
		{"plain", "Available: 2/3", "Available: 2/3", "Available: 2/3"},
		{"colour and cursor movement", "ok\x1b[2J\x1b[1;1Hpwned", "ok^[[2J^[[1;1Hpwned", "ok^[[2J^[[1;1Hpwned"},
		{"carriage return overwrites the line", "fine\rFAILED", `fine\rFAILED`, `fine\rFAILED`},
		{"8-bit CSI", "a\u009b31mb", `a\u009b31mb`, `a\u009b31mb`},
		{"bell and backspace", "a\a\bb", `a\a\bb`, `a\a\bb`},
		{"newline keeps a table row whole", "line one\nline two", `line one\nline two`, "line one\nline two"},
		{"tab", "a\tb", "a b", "a b"},
		{"unicode stays", "Überprüfung läuft ✓", "Überprüfung läuft ✓", "Überprüfung läuft ✓"},
		{"window title (OSC)", "\x1b]0;owned\x07", `^[]0;owned\a`, `^[]0;owned\a`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := forTerminal(tt.in); got != tt.want {
				t.Errorf("forTerminal(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := linesForTerminal(tt.in); got != tt.wantLines {
				t.Errorf("linesForTerminal(%q) = %q, want %q", tt.in, got, tt.wantLines)
			}
		})
	}
}

func TestStatusesForTerminal(t *testing.T) {
	in := []kates.ObjectStatus{{Kind: "Widget", Name: "w", Reason: "Bad\x1b[31m", Message: "a\x1b[1Ab",
		Related: []kates.ObjectStatus{{Kind: "Pod", Name: "p", Message: "x\ry"}}}}
	want := []kates.ObjectStatus{{Kind: "Widget", Name: "w", Reason: "Bad^[[31m", Message: "a^[[1Ab",
		Related: []kates.ObjectStatus{{Kind: "Pod", Name: "p", Message: `x\ry`}}}}
	if diff := cmp.Diff(want, statusesForTerminal(in)); diff != "" {
		t.Errorf("statusesForTerminal mismatch (-want +got):\n%s", diff)
	}
	if in[0].Message != "a\x1b[1Ab" {
		t.Errorf("statusesForTerminal changed its argument: %q", in[0].Message)
	}
}

func TestTerminalWriterEscapesWarnings(t *testing.T) {
	var b strings.Builder
	w := rest.NewWarningWriter(terminalWriter{&b}, rest.WarningWriterOptions{Deduplicate: true})
	w.HandleWarningHeader(299, "", "bad\x1b[2Jthing")
	w.HandleWarningHeader(299, "", "bad\x1b[2Jthing")
	if got, want := b.String(), "Warning: bad^[[2Jthing\n"; got != want {
		t.Errorf("written %q, want %q (once, escaped)", got, want)
	}
}
