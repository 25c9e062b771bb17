package main

import (
	"fmt"
	"strings"
	"unicode"

	"k8s.io/cli-runtime/pkg/printers"

	"github.com/kates-dev/kates/kates"
)

// Text from the cluster is untrusted: anyone who can write a status condition, an event or a
// container message chooses what it says, and a terminal obeys the escape sequences in what it
// prints (moving the cursor, rewriting lines, setting the window title; kubectl fixed the same in
// #101695). Every cluster-supplied string the CLI writes for a person goes through
// forTerminal first. JSON and YAML output need none of this: their encoders escape control
// characters.

// forTerminal makes s safe to print: cli-runtime's printers.EscapeTerminal (ESC as "^[", CR
// as "\r"), and, since that leaves the other control characters alone, each of those written
// as a Go escape ("\n", "\a", "\u009b"), so a multi-line message stays on its table row.
func forTerminal(s string) string {
	return escapeControls(printers.EscapeTerminal(s), false)
}

// linesForTerminal is forTerminal for text of several lines, such as an error that lists one
// object per line: newlines are kept, everything else is escaped.
func linesForTerminal(s string) string {
	return escapeControls(printers.EscapeTerminal(s), true)
}

func escapeControls(s string, keepNewlines bool) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) && !(keepNewlines && r == '\n') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString(" ")
		case r == '\n' && keepNewlines:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case unicode.IsControl(r):
			q := fmt.Sprintf("%+q", string(r)) // "\a", "\x9b", "\u0085"
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// statusesForTerminal returns rs with every string the cluster chose escaped by forTerminal.
// Kinds, names and namespaces are validated by the API server, but a custom resource's kind
// and a status reason are not, so every field is escaped.
func statusesForTerminal(rs []kates.ObjectStatus) []kates.ObjectStatus {
	if rs == nil {
		return nil
	}
	out := make([]kates.ObjectStatus, len(rs))
	for i, r := range rs {
		r.Group, r.Kind = forTerminal(r.Group), forTerminal(r.Kind)
		r.Namespace, r.Name = forTerminal(r.Namespace), forTerminal(r.Name)
		r.Reason, r.Message = forTerminal(r.Reason), forTerminal(r.Message)
		r.Related = statusesForTerminal(r.Related)
		out[i] = r
	}
	return out
}
