package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
	"k8s.io/client-go/util/jsonpath"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// The annotations by which an object says when it is ready, instead of being Current. See the
// package documentation, "Readiness".
const (
	// ReadyWhenAnnotation is a CEL expression, over the object as self (and apiVersion, kind,
	// metadata, spec, status), that is true once the object is ready: "self.status.succeeded
	// >= 1". It is a kstatus status rule's Current expression (see kstatus.Rule), so the
	// object is first judged by what kstatus judges every object by (deletion, a generation
	// not observed yet).
	ReadyWhenAnnotation = "kates.dev/ready-when"
	// FailedWhenAnnotation is a CEL expression that is true once the object has failed. Alone,
	// without ReadyWhenAnnotation, it adds a failure to what kstatus says of the object.
	FailedWhenAnnotation = "kates.dev/failed-when"

	helmReadySuccessAnnotation = "helm.sh/readiness-success"
	helmReadyFailureAnnotation = "helm.sh/readiness-failure"
)

// readiness judges one object by its readiness annotations instead of its kstatus.
type readiness struct {
	// what names the annotations, for messages.
	what string
	// Helm's expressions: the object is Failed when one of failure holds, else Current when
	// one of success holds, else InProgress.
	success, failure []helmExpr
	// rules is the CEL of ReadyWhenAnnotation and FailedWhenAnnotation as a status rule.
	rules *kstatus.RuleSet
}

// readinessOf reads u's readiness annotations: nil when it has none.
func readinessOf(u *unstructured.Unstructured) (*readiness, []string) {
	ann := u.GetAnnotations()
	success, hasSuccess := ann[helmReadySuccessAnnotation]
	failure, hasFailure := ann[helmReadyFailureAnnotation]
	readyWhen, hasReady := ann[ReadyWhenAnnotation]
	failedWhen, hasFailed := ann[FailedWhenAnnotation]
	helm, cel := hasSuccess || hasFailure, hasReady || hasFailed
	switch {
	case helm && cel:
		return nil, []string{fmt.Sprintf("readiness annotations of both Helm (%s, %s) and kates (%s, %s): give one", helmReadySuccessAnnotation, helmReadyFailureAnnotation, ReadyWhenAnnotation, FailedWhenAnnotation)}
	case helm && hasSuccess != hasFailure:
		// Helm itself refuses this in helm lint and ignores both at install.
		return nil, []string{fmt.Sprintf("annotations %s and %s go together (HIP-0025): give both", helmReadySuccessAnnotation, helmReadyFailureAnnotation)}
	case helm:
		r := &readiness{what: helmReadySuccessAnnotation}
		var problems []string
		for _, a := range []struct {
			key, value string
			into       *[]helmExpr
		}{{helmReadySuccessAnnotation, success, &r.success}, {helmReadyFailureAnnotation, failure, &r.failure}} {
			exprs, err := parseHelmExprs(a.value)
			if err != nil {
				problems = append(problems, fmt.Sprintf("annotation %s: %v", a.key, err))
			}
			*a.into = exprs
		}
		if problems != nil {
			return nil, problems
		}
		return r, nil
	case cel:
		what := ReadyWhenAnnotation
		if !hasReady {
			what = FailedWhenAnnotation
		}
		gvk := u.GroupVersionKind()
		rs, err := kstatus.CompileRules([]kstatus.Rule{{
			Name:  what,
			Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind,
			Current: readyWhen, Failed: failedWhen,
			Override: true, // the author's word beats the built-in rule of the kind
		}})
		if err != nil {
			return nil, []string{err.Error()}
		}
		return &readiness{what: what, rules: rs}, nil
	}
	return nil, nil
}

// judge says what the readiness annotations make of u.
func (r *readiness) judge(u *unstructured.Unstructured) (kstatus.Status, string) {
	if r.rules != nil {
		res, err := kstatus.ComputeWith(u, kstatus.Options{Rules: r.rules})
		if err != nil {
			return kstatus.UnknownStatus, err.Error()
		}
		return res.Status, res.Message
	}
	status, _, _ := unstructured.NestedMap(u.Object, "status")
	for _, e := range r.failure {
		if e.holds(status) {
			return kstatus.FailedStatus, fmt.Sprintf("%s: %s", helmReadyFailureAnnotation, e.text)
		}
	}
	for _, e := range r.success {
		if e.holds(status) {
			return kstatus.CurrentStatus, fmt.Sprintf("%s: %s", helmReadySuccessAnnotation, e.text)
		}
	}
	texts := make([]string, len(r.success))
	for i, e := range r.success {
		texts[i] = e.text
	}
	return kstatus.InProgressStatus, fmt.Sprintf("waiting for %s: %s", helmReadySuccessAnnotation, strings.Join(texts, " or "))
}

// helmExpr is one of HIP-0025's readiness expressions: "{.succeeded} >= 1", a JSONPath into
// the object's status (".status" may be spelled out), an operator and a value.
type helmExpr struct {
	text  string
	path  *jsonpath.JSONPath
	op    string
	value string // without quotes
}

// parseHelmExprs parses an annotation's JSON list of expressions.
func parseHelmExprs(annotation string) ([]helmExpr, error) {
	var texts []string
	if err := json.Unmarshal([]byte(annotation), &texts); err != nil {
		return nil, fmt.Errorf("%q: want a JSON list of expressions, as [\"{.succeeded} >= 1\"]", annotation)
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("%q: no expression", annotation)
	}
	out := make([]helmExpr, len(texts))
	for i, t := range texts {
		e, err := parseHelmExpr(strings.TrimSpace(t))
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

func parseHelmExpr(text string) (helmExpr, error) {
	e := helmExpr{text: text}
	path, rest, ok := strings.Cut(strings.TrimPrefix(text, "{"), "}")
	path = strings.TrimSpace(path)
	if !strings.HasPrefix(text, "{") || !ok || path == "" {
		return e, fmt.Errorf("%q: want {JSONPATH} OPERATOR VALUE, as {.succeeded} >= 1", text)
	}
	switch {
	case strings.HasPrefix(path, ".status.") || strings.HasPrefix(path, ".status["):
		path = strings.TrimPrefix(path, ".status")
	case strings.HasPrefix(path, ".") || strings.HasPrefix(path, "["):
	default:
		return e, fmt.Errorf("%q: the path must start with . or [", text)
	}
	e.path = jsonpath.New("readiness")
	if err := e.path.Parse("{.status" + path + "}"); err != nil {
		return e, fmt.Errorf("%q: %v", text, err)
	}
	rest = strings.TrimSpace(rest)
	for _, op := range []string{"==", "!=", "<=", ">=", "<", ">"} {
		if v, ok := strings.CutPrefix(rest, op); ok {
			e.op, e.value = op, unquote(strings.TrimSpace(v))
			break
		}
	}
	switch {
	case e.op == "" || e.value == "":
		return e, fmt.Errorf("%q: want an operator (==, !=, <, <=, >, >=) and a value after the path", text)
	case e.op != "==" && e.op != "!=":
		if _, err := strconv.ParseFloat(e.value, 64); err != nil {
			return e, fmt.Errorf("%q: %s compares numbers, and %s is not one", text, e.op, e.value)
		}
	}
	return e, nil
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// holds says whether the expression is true of status. A path that finds nothing is false,
// as in Helm: a status not reported yet is not ready, nor failed.
func (e helmExpr) holds(status map[string]any) bool {
	if status == nil {
		return false
	}
	var buf bytes.Buffer
	if err := e.path.Execute(&buf, map[string]any{"status": status}); err != nil {
		return false
	}
	got := strings.TrimSpace(buf.String())
	x, errX := strconv.ParseFloat(got, 64)
	y, errY := strconv.ParseFloat(e.value, 64)
	if errX == nil && errY == nil {
		switch e.op {
		case "==":
			return x == y
		case "!=":
			return x != y
		case "<":
			return x < y
		case "<=":
			return x <= y
		case ">":
			return x > y
		case ">=":
			return x >= y
		}
	}
	switch e.op {
	case "==":
		return got == e.value
	case "!=":
		return got != e.value
	}
	return false // an order between things that are not both numbers
}

// errNotReady ends a readiness watch on a Failed object.
var errNotReady = errors.New("readiness failed")

// waitReadiness watches object i until its readiness annotations say it is ready (nil) or
// failed, or ctx ends (a *kates.WaitError, as Client.Wait returns). report is called with
// each status as it changes.
func (r *run) waitReadiness(ctx context.Context, i int, rd *readiness, report func(kates.ObjectStatus)) error {
	o := &r.res.Objects[i]
	st := kates.ObjectStatus{Group: o.GroupVersionKind.Group, Kind: o.GroupVersionKind.Kind, Namespace: o.Namespace, Name: o.Name,
		Status: kstatus.NotFoundStatus, Message: "not found"}
	defer func() {
		r.mu.Lock() // OnGroup may be reading it
		o.Status = &st
		r.mu.Unlock()
	}()
	m, err := r.c.MappingFor(o.GroupVersionKind)
	if err != nil {
		return err
	}
	var ri dynamic.ResourceInterface = r.c.DynamicInterface().Resource(m.Resource)
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		ri = r.c.DynamicInterface().Resource(m.Resource).Namespace(o.Namespace)
	}
	byName := fields.OneTermEqualSelector("metadata.name", o.Name).String()
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			opts.FieldSelector = byName
			if opts.ResourceVersion == "0" {
				// The informer streams its first objects (WatchList, a consistent read); if
				// a server refuses that, its fallback list at "0" could come from a watch cache
				// that has not yet seen the apply this waits on, and the object's old status
				// could read ready: read consistently.
				opts.ResourceVersion, opts.ResourceVersionMatch, opts.Limit = "", "", 0
			}
			return ri.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.FieldSelector = byName
			return ri.Watch(ctx, opts)
		},
	}
	_, err = watchtools.UntilWithSync(ctx, lw, &unstructured.Unstructured{}, nil, func(ev watch.Event) (bool, error) {
		next := st
		switch ev.Type {
		case watch.Deleted:
			next.Status, next.Message = kstatus.NotFoundStatus, "deleted"
		case watch.Added, watch.Modified:
			u, ok := ev.Object.(*unstructured.Unstructured)
			if !ok {
				return false, nil
			}
			next.Status, next.Message = rd.judge(u)
			next.Created = u.GetCreationTimestamp().Time
		default:
			return false, nil
		}
		if next.Status != st.Status || next.Message != st.Message {
			st = next
			report(st)
		}
		switch st.Status {
		case kstatus.FailedStatus:
			return false, errNotReady
		case kstatus.CurrentStatus:
			return true, nil
		}
		return false, nil
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errNotReady):
		return &kates.WaitError{For: kstatus.CurrentStatus, Results: []kates.ObjectStatus{st}, Err: kates.ErrWaitFailed}
	case ctx.Err() != nil:
		return &kates.WaitError{For: kstatus.CurrentStatus, Results: []kates.ObjectStatus{st}, Err: ctx.Err()}
	}
	return fmt.Errorf("apply: wait for %s: %w", o, err)
}
