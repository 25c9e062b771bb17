package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/cli-runtime/pkg/printers"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// printName prints r as kubectl get -o name does (TYPE[.GROUP]/NAME, the kind in lower case),
// through cli-runtime's NamePrinter, the printer kubectl itself uses, so the bytes are kubectl's.
func printName(w io.Writer, r kates.ObjectStatus) error {
	u := &unstructured.Unstructured{}
	// The version does not show in the name; the printer needs a kind and refuses an empty one.
	u.SetGroupVersionKind(schema.GroupVersionKind{Group: r.Group, Version: "v1", Kind: r.Kind})
	u.SetName(r.Name)
	return (&printers.NamePrinter{ShortOutput: true}).PrintObj(u, w)
}

// newNameLinesPrinter is watch -o name: the name of each object that changed (or went), a
// line each, as kubectl get --watch -o name prints one per event.
func newNameLinesPrinter(out io.Writer) *jsonLinesPrinter {
	return &jsonLinesPrinter{emit: func(r kates.ObjectStatus) { _ = printName(out, r) }}
}

// displayName names an object as kubectl does: "deployment.apps/web", "service/web". A
// placeholder for a kind not served yet has no name: "gadget.example.com/*".
func displayName(s kates.ObjectStatus) string {
	kind := strings.ToLower(s.Kind)
	if s.Group != "" {
		kind += "." + s.Group
	}
	name := s.Name
	if name == "" {
		name = "*"
	}
	return kind + "/" + name
}

// multipleNamespaces reports whether rs span more than one namespace: only then do tables show
// a NAMESPACE column.
func multipleNamespaces(rs []kates.ObjectStatus) bool {
	ns := ""
	for _, r := range rs {
		if r.Namespace == "" {
			continue
		}
		if ns == "" {
			ns = r.Namespace
		} else if r.Namespace != ns {
			return true
		}
	}
	return false
}

// statusWord names the status waited for in counts: "4/6 Current", "2/2 deleted".
func statusWord(desired kstatus.Status) string {
	if desired == kstatus.NotFoundStatus {
		return "deleted"
	}
	return string(desired)
}

// progressCount is "4/6 Current".
func progressCount(rs []kates.ObjectStatus, desired kstatus.Status) string {
	n := 0
	for _, r := range rs {
		if r.Status == desired {
			n++
		}
	}
	return fmt.Sprintf("%d/%d %s", n, len(rs), statusWord(desired))
}

func age(s kates.ObjectStatus, now time.Time) string {
	if s.Created.IsZero() {
		return "-"
	}
	return duration.HumanDuration(now.Sub(s.Created))
}

// writeTable writes rs as a table: NAMESPACE (when they span several, or always with -A, as
// kubectl does), NAME, STATUS, AGE, MESSAGE.
func writeTable(w io.Writer, rs []kates.ObjectStatus, now time.Time, allNamespaces bool) {
	rs = statusesForTerminal(rs)
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	multi := allNamespaces || multipleNamespaces(rs)
	if multi {
		fmt.Fprint(tw, "NAMESPACE\t")
	}
	fmt.Fprintln(tw, "NAME\tSTATUS\tAGE\tMESSAGE")
	for _, r := range rs {
		if multi {
			fmt.Fprintf(tw, "%s\t", r.Namespace)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", displayName(r), r.Status, age(r, now), r.Message)
	}
	tw.Flush()
}

// progressPrinter shows statuses as they change.
type progressPrinter interface {
	// update shows the latest statuses; the printer keeps rs.
	update(rs []kates.ObjectStatus)
	// finish stops any redrawing and leaves the last view on the screen.
	finish()
}

// isTerminal reports whether w is a terminal, the only place a live table can be redrawn.
func isTerminal(w io.Writer) (int, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return 0, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// newProgressPrinter returns a live table for a terminal, lines otherwise. allNamespaces (-A)
// names every object's namespace, even when all are in one.
func newProgressPrinter(out io.Writer, desired kstatus.Status, start time.Time, allNamespaces bool) progressPrinter {
	if fd, ok := isTerminal(out); ok {
		p := newLivePrinter(out, fd, desired, start)
		p.allNamespaces = allNamespaces
		return p
	}
	return &linePrinter{out: out, start: start, allNamespaces: allNamespaces}
}

// changeTracker finds what changed between successive status lists: an object whose status or
// message differs from the last one seen, and objects that left (deleted, or relabelled out of a
// selection).
type changeTracker struct {
	last map[string]kates.ObjectStatus
}

func statusKey(s kates.ObjectStatus) string {
	return s.Group + "/" + s.Kind + "/" + s.Namespace + "/" + s.Name
}

// diff returns, in rs's order, the statuses that changed, and the last statuses of the objects
// that are gone, in key order.
func (t *changeTracker) diff(rs []kates.ObjectStatus) (changed, gone []kates.ObjectStatus) {
	if t.last == nil {
		t.last = map[string]kates.ObjectStatus{}
	}
	seen := make(map[string]bool, len(rs))
	for _, r := range rs {
		k := statusKey(r)
		seen[k] = true
		if old, ok := t.last[k]; ok && old.Status == r.Status && old.Message == r.Message {
			continue
		}
		t.last[k] = r
		changed = append(changed, r)
	}
	var goneKeys []string
	for k := range t.last {
		if !seen[k] {
			goneKeys = append(goneKeys, k)
		}
	}
	sort.Strings(goneKeys)
	for _, k := range goneKeys {
		gone = append(gone, t.last[k])
		delete(t.last, k)
	}
	return changed, gone
}

// linePrinter prints one line per change of an object's status or message, for logs: each
// line stands alone, with the time since the start.
type linePrinter struct {
	mu            sync.Mutex
	out           io.Writer
	start         time.Time
	allNamespaces bool
	tracker       changeTracker
}

func (p *linePrinter) update(rs []kates.ObjectStatus) {
	rs = statusesForTerminal(rs)
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := time.Since(p.start).Seconds()
	multi := p.allNamespaces || multipleNamespaces(rs)
	changed, gone := p.tracker.diff(rs)
	var b strings.Builder
	for _, r := range changed {
		fmt.Fprintf(&b, "%6.1fs %s", elapsed, displayName(r))
		if multi && r.Namespace != "" {
			fmt.Fprintf(&b, " -n %s", r.Namespace)
		}
		fmt.Fprintf(&b, " %s: %s\n", r.Status, r.Message)
	}
	for _, old := range gone {
		fmt.Fprintf(&b, "%6.1fs %s gone\n", elapsed, displayName(old))
	}
	io.WriteString(p.out, b.String())
}

func (p *linePrinter) finish() {}

// jsonLinesPrinter writes one JSON object per change, on a line of its own, in the schema of
// `kates status -o json`'s elements, for programs (jq, a CI step) to read as it happens. An
// object that is gone is written once more with status NotFound and reason Gone.
type jsonLinesPrinter struct {
	mu      sync.Mutex
	emit    func(kates.ObjectStatus)
	tracker changeTracker
}

func newJSONLinesPrinter(out io.Writer) *jsonLinesPrinter {
	enc := json.NewEncoder(out)
	// One line each; a broken pipe shows when the command exits.
	return &jsonLinesPrinter{emit: func(r kates.ObjectStatus) { _ = enc.Encode(r) }}
}

// newJSONPathLinesPrinter is watch -o jsonpath: each change's status object through p, in the
// same order and with the same "Gone" record as -o json.
func newJSONPathLinesPrinter(out io.Writer, p *kates.JSONPath) *jsonLinesPrinter {
	return &jsonLinesPrinter{emit: func(r kates.ObjectStatus) { _ = printJSONPath(out, p, r) }}
}

func (p *jsonLinesPrinter) update(rs []kates.ObjectStatus) {
	p.mu.Lock()
	defer p.mu.Unlock()
	changed, gone := p.tracker.diff(rs)
	for _, old := range gone {
		old.Status, old.Reason, old.Message, old.Related = kstatus.NotFoundStatus, "Gone", "Gone", nil
		changed = append(changed, old)
	}
	for _, r := range changed {
		p.emit(r)
	}
}

func (p *jsonLinesPrinter) finish() {}

// livePrinter redraws a table in place on a terminal, under a progress count, at each change
// and every second (for the ages).
type livePrinter struct {
	mu      sync.Mutex
	out     io.Writer
	fd      int
	desired kstatus.Status
	start   time.Time
	// allNamespaces shows the NAMESPACE column whatever the objects (-A).
	allNamespaces bool
	last          []kates.ObjectStatus
	lines         int // lines drawn last time, to move the cursor back over
	stop          chan struct{}
	stopped       chan struct{}
}

func newLivePrinter(out io.Writer, fd int, desired kstatus.Status, start time.Time) *livePrinter {
	p := &livePrinter{out: out, fd: fd, desired: desired, start: start, stop: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(p.stopped)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-tick.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
	return p
}

func (p *livePrinter) update(rs []kates.ObjectStatus) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = rs
	p.draw()
}

func (p *livePrinter) finish() {
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw()
}

// draw redraws the table over the previous one. Lines are cut at the terminal's width, so each
// takes exactly one row and the cursor can be moved back over them.
func (p *livePrinter) draw() {
	if p.last == nil {
		return
	}
	width := 120
	if w, _, err := term.GetSize(p.fd); err == nil && w > 0 {
		width = w
	}
	now := time.Now()
	var table bytes.Buffer
	writeTable(&table, p.last, now, p.allNamespaces)
	fmt.Fprintf(&table, "%s (%s)\n", progressCount(p.last, p.desired), now.Sub(p.start).Round(100*time.Millisecond))

	var b bytes.Buffer
	if p.lines > 0 {
		fmt.Fprintf(&b, "\x1b[%dA\r\x1b[J", p.lines) // up to the first line drawn, and clear below
	}
	lines := strings.Split(strings.TrimSuffix(table.String(), "\n"), "\n")
	for _, l := range lines {
		b.WriteString(truncate(l, width-1))
		b.WriteByte('\n')
	}
	p.lines = len(lines)
	p.out.Write(b.Bytes())
}

// truncate cuts s to n runes, marking the cut with "…".
func truncate(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
