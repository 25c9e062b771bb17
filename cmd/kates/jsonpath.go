package main

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/kates-dev/kates/kates"
)

// jsonPathOutput reads -o jsonpath=TEMPLATE or -o jsonpath-file=FILE as kubectl takes them,
// parsed as wait --for=jsonpath is (kates.ParseJSONPath). ok is false when output is another
// format. A template that does not parse, or a file that cannot be read, is a usage error.
func jsonPathOutput(output string) (p *kates.JSONPath, ok bool, err error) {
	template, isPath := strings.CutPrefix(output, "jsonpath=")
	if file, isFile := strings.CutPrefix(output, "jsonpath-file="); isFile {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, true, usageErrorf("-o jsonpath-file: %v", err)
		}
		template, isPath = string(data), true
	}
	if !isPath {
		return nil, false, nil
	}
	if strings.TrimSpace(template) == "" {
		return nil, true, usageErrorf("-o %q: the template is empty; want jsonpath='{.metadata.name}'", output)
	}
	p, err = kates.ParseJSONPath(template)
	if err != nil {
		return nil, true, usageErrorf("-o %s: %v", output, strings.TrimPrefix(errors.Unwrap(err).Error(), "kates: "))
	}
	return p, true, nil
}

// printJSONPath writes p's text for obj; as kubectl's, it adds no newline of its own. On a
// terminal the text is escaped as all cluster-supplied text is; through a pipe it is written
// exactly, for the script that reads it.
func printJSONPath(w io.Writer, p *kates.JSONPath, obj any) error {
	var b strings.Builder
	if err := p.Execute(&b, obj); err != nil {
		return failure(err)
	}
	text := b.String()
	if _, tty := isTerminal(w); tty {
		text = linesForTerminal(text)
	}
	_, err := io.WriteString(w, text)
	return err
}
