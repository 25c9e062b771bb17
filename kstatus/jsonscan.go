package kstatus

import (
	"encoding/json"
	"strings"
)

// jsonScanner reads conditions kept as JSON text in an annotation (autoscaling/v1 keeps
// its HorizontalPodAutoscaler's there). Compute runs for every watched object, and
// decoding the text with encoding/json costs a dozen times what the rest of Compute
// does; the scanner walks the text once instead and returns strings that share its
// memory, allocating only to unescape a string that has escapes. It checks the syntax
// it walks, so malformed text is reported, not guessed at.
type jsonScanner struct {
	s string
	i int
}

// conditions reads a JSON list of condition objects and returns the first whose type is
// a and the first whose type is b, and how many entries the list has. ok is false if
// the text is not such a list. As in fields.cond, an entry without a string type
// matches nothing; unlike it, every entry's status, reason and message must be strings
// (the API server writes nothing else there).
func (sc *jsonScanner) conditions(a, b string) (ca, cb condition, n int, ok bool) {
	if !sc.byte('[') {
		return ca, cb, 0, false
	}
	if sc.byte(']') {
		return ca, cb, 0, sc.end()
	}
	for {
		typ, c, ok := sc.condition()
		if !ok {
			return ca, cb, 0, false
		}
		n++
		switch {
		case typ == a && !ca.found:
			ca = c
		case typ == b && !cb.found:
			cb = c
		}
		if sc.byte(',') {
			continue
		}
		if sc.byte(']') {
			return ca, cb, n, sc.end()
		}
		return ca, cb, 0, false
	}
}

// condition reads one condition object. Keys other than type, status, reason and message
// are skipped whatever their value.
func (sc *jsonScanner) condition() (typ string, c condition, ok bool) {
	if !sc.byte('{') {
		return "", c, false
	}
	c.found = true
	if sc.byte('}') {
		return "", c, true
	}
	for {
		key, ok := sc.str()
		if !ok || !sc.byte(':') {
			return "", c, false
		}
		var dst *string
		switch key {
		case "type":
			dst = &typ
		case "status":
			dst = &c.status
		case "reason":
			dst = &c.reason
		case "message":
			dst = &c.message
		}
		if dst != nil && sc.peek() == '"' {
			if *dst, ok = sc.str(); !ok {
				return "", c, false
			}
		} else if !sc.skip() || (dst != nil && key != "type") {
			// A non-string type only makes the entry match nothing; a non-string
			// status, reason or message is malformed.
			return "", c, false
		}
		if sc.byte(',') {
			continue
		}
		return typ, c, sc.byte('}')
	}
}

// space skips white space.
func (sc *jsonScanner) space() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (sc *jsonScanner) peek() byte {
	sc.space()
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

// byte consumes c, after white space, if it comes next.
func (sc *jsonScanner) byte(c byte) bool {
	if sc.peek() == c {
		sc.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (sc *jsonScanner) end() bool {
	return sc.peek() == 0 && sc.i == len(sc.s)
}

// str reads a string. Without escapes it is a slice of the text; with them it is
// decoded by encoding/json, which knows JSON's escapes.
func (sc *jsonScanner) str() (string, bool) {
	if !sc.byte('"') {
		return "", false
	}
	s, start := sc.s, sc.i
	// The common case, no escape before the closing quote: two fast searches.
	if j := strings.IndexByte(s[start:], '"'); j >= 0 && strings.IndexByte(s[start:start+j], '\\') < 0 {
		v := s[start : start+j]
		for i := 0; i < len(v); i++ {
			if v[i] < 0x20 {
				return "", false
			}
		}
		sc.i = start + j + 1
		return v, true
	}
	for i := start; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c < 0x20:
			return "", false
		case c == '"':
			sc.i = i + 1
			var out string
			if err := json.Unmarshal([]byte(s[start-1:i+1]), &out); err != nil {
				return "", false
			}
			return out, true
		}
	}
	return "", false
}

// skip reads any value and discards it.
func (sc *jsonScanner) skip() bool {
	switch sc.peek() {
	case '"':
		_, ok := sc.str()
		return ok
	case '{':
		sc.i++
		if sc.byte('}') {
			return true
		}
		for {
			if _, ok := sc.str(); !ok || !sc.byte(':') || !sc.skip() {
				return false
			}
			if sc.byte(',') {
				continue
			}
			return sc.byte('}')
		}
	case '[':
		sc.i++
		if sc.byte(']') {
			return true
		}
		for {
			if !sc.skip() {
				return false
			}
			if sc.byte(',') {
				continue
			}
			return sc.byte(']')
		}
	}
	// A literal: true, false, null or a number.
	start := sc.i
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'E') {
			break
		}
		sc.i++
	}
	switch lit := sc.s[start:sc.i]; lit {
	case "true", "false", "null":
		return true
	default:
		return isJSONNumber(lit)
	}
}

// isJSONNumber reports whether s is a number as JSON spells it: strconv.ParseFloat
// also takes "+1", ".5", "inf" and hexadecimal, which JSON does not.
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
