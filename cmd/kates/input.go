package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/fields"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/kates-dev/kates/kates"
)

// inputFlags are the flags that say which objects a command works on.
type inputFlags struct {
	files         []string
	kustomize     string
	recursive     bool
	selector      string
	fieldSelector string
	allNamespaces bool
}

func (f *inputFlags) addFileFlags(cmd *cobra.Command, what string) {
	cmd.Flags().StringSliceVarP(&f.files, "filename", "f", nil, what+": a file, a directory of .yaml, .yml and .json files, or - for stdin (repeatable)")
	cmd.Flags().BoolVarP(&f.recursive, "recursive", "R", false, "read directories given to -f recursively")
}

// addKustomizeFlag adds -k DIR, kustomize's build of DIR, as kubectl's apply, diff and
// delete take it.
func (f *inputFlags) addKustomizeFlag(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&f.kustomize, "kustomize", "k", "", "a kustomization directory: apply what kustomize builds from it (as kubectl -k), instead of -f")
	_ = cmd.MarkFlagDirname("kustomize")
}

// hasInput says whether -f or -k names any input.
func (f *inputFlags) hasInput() bool { return len(f.files) > 0 || f.kustomize != "" }

// read reads the manifests -f or -k names; both at once is a usage error, as in kubectl.
func (f *inputFlags) read(stdin io.Reader) ([]manifest, error) {
	if f.kustomize == "" {
		return readManifests(f.files, f.recursive, stdin)
	}
	if len(f.files) > 0 {
		return nil, usageErrorf("give -f or -k, not both")
	}
	return readKustomization(f.kustomize)
}

func (f *inputFlags) addSelectorFlags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&f.selector, "selector", "l", "", "label selector for TYPE arguments without names (app=web,tier!=db)")
	cmd.Flags().StringVar(&f.fieldSelector, "field-selector", "", "field selector for TYPE arguments without names, as the API server takes it (status.phase=Running)")
	cmd.Flags().BoolVarP(&f.allNamespaces, "all-namespaces", "A", false, "select TYPE arguments without names in every namespace")
}

// manifest is one object read from a file, with where it came from for messages.
type manifest struct {
	obj kates.Object
	// raw is the object as written: obj is typed where kates.Scheme knows the kind, and the
	// conversion drops fields the type lacks, which validation must see.
	raw      *unstructured.Unstructured
	source   string
	index    int // counts from 1 within source
	document int // the document of source it came from, from 1
}

// readManifests reads every object of the files, directories and "-" (stdin) named by paths.
// Every error is a usage error naming the file, and the document for a parse error.
func readManifests(paths []string, recursive bool, stdin io.Reader) ([]manifest, error) {
	var out []manifest
	for _, p := range paths {
		files, err := expand(p, recursive)
		if err != nil {
			return nil, err
		}
		for _, file := range files {
			var data []byte
			switch {
			case file == "-":
				data, err = io.ReadAll(stdin)
				file = "<stdin>"
			case isURL(file):
				data, err = fetch(file)
			default:
				data, err = os.ReadFile(file)
			}
			if err != nil {
				return nil, usageErrorf("read %s: %v", file, err)
			}
			more, err := parseManifests(file, data)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
		}
	}
	if len(out) == 0 {
		return nil, usageErrorf("no objects in %s", strings.Join(paths, ", "))
	}
	return out, nil
}

// parseManifests parses the objects of data, read from source. An error is a usage error
// naming source and the document.
func parseManifests(source string, data []byte) ([]manifest, error) {
	// As written: a typed parse would drop a misspelled field before the server's strict
	// validation (or the Validator) could refuse it.
	objs, err := kates.ParseUnstructuredManifests(string(data))
	if err != nil {
		var me *kates.ManifestError
		if errors.As(err, &me) {
			return nil, usageErrorf("%s: document %d: %v", source, me.Document, me.Err)
		}
		return nil, usageErrorf("%s: %v", source, err)
	}
	var out []manifest
	for i, o := range objs {
		// A value of the wrong type keeps the object unstructured, for validation (or the
		// server) to report with the rest, instead of failing here.
		typed, err := kates.NewObjectFromUnstructured(o.Object)
		if err != nil {
			typed = o.Object.DeepCopy()
		}
		out = append(out, manifest{obj: typed, raw: o.Object, source: source, index: i + 1, document: o.Document})
	}
	return out, nil
}

// readKustomization builds the kustomization in dir with kustomize's own API, as kubectl -k
// does (krusty, on the disk, with kustomize's default options). A kustomization that does not
// build is a usage error carrying kustomize's message.
func readKustomization(dir string) ([]manifest, error) {
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, usageErrorf("-k %s: %v", dir, err)
	}
	data, err := resources.AsYaml()
	if err != nil {
		return nil, usageErrorf("-k %s: %v", dir, err)
	}
	source := dir + " (kustomize build)"
	ms, err := parseManifests(source, data)
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, usageErrorf("-k %s: the kustomization builds no objects", dir)
	}
	return ms, nil
}

// expand lists the manifest files p names: p itself (a file, "-" or an http(s) URL), the
// files a glob pattern matches ("deploy/*.yaml", as kubectl takes it when the shell did not
// expand it), or the .yaml, .yml and .json files of a directory in lexical order (its
// subdirectories' too, when recursive).
func expand(p string, recursive bool) ([]string, error) {
	if p == "-" || isURL(p) {
		return []string{p}, nil
	}
	if strings.ContainsAny(p, "*?[") {
		if _, err := os.Stat(p); err != nil { // a file whose name holds * is itself
			matches, err := filepath.Glob(p)
			if err != nil {
				return nil, usageErrorf("%s: %v", p, err)
			}
			if len(matches) == 0 {
				return nil, usageErrorf("%s: no file matches the pattern", p)
			}
			var files []string
			for _, m := range matches {
				more, err := expand(m, recursive)
				if err != nil {
					return nil, err
				}
				files = append(files, more...)
			}
			return files, nil
		}
	}
	info, err := os.Stat(p)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	var files []string
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != p && !recursive {
				return filepath.SkipDir
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".yaml", ".yml", ".json":
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, usageErrorf("%s: no .yaml, .yml or .json files", p)
	}
	return files, nil
}

// crdKinds maps each kind the CustomResourceDefinitions among ms define to the name WaitFor
// takes ("widgets.example.com").
func crdKinds(ms []manifest) map[schema.GroupKind]string {
	out := map[schema.GroupKind]string{}
	for _, m := range crdManifests(ms) {
		u := m.raw
		group, _, _ := unstructured.NestedString(u.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(u.Object, "spec", "names", "kind")
		plural, _, _ := unstructured.NestedString(u.Object, "spec", "names", "plural")
		if kind != "" && plural != "" {
			out[schema.GroupKind{Group: group, Kind: kind}] = plural + "." + group
		}
	}
	return out
}

// crdManifests returns the CustomResourceDefinitions among ms (read them through raw, as
// written).
func crdManifests(ms []manifest) []manifest {
	var out []manifest
	for _, m := range ms {
		if isCRD(m.obj) {
			out = append(out, m)
		}
	}
	return out
}

func isCRD(o kates.Object) bool {
	gvk := o.GetObjectKind().GroupVersionKind()
	return gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition"
}

// checkKinds fails with a usage error naming the file when an object's kind is neither served
// nor defined by a CustomResourceDefinition among ms.
func checkKinds(c *kates.Client, ms []manifest) error {
	defined := crdKinds(ms)
	checked := map[schema.GroupVersionKind]bool{}
	for _, m := range ms {
		gvk := m.obj.GetObjectKind().GroupVersionKind()
		if checked[gvk] {
			continue
		}
		checked[gvk] = true
		if _, ok := defined[gvk.GroupKind()]; ok {
			continue
		}
		if _, err := c.Mapping(gvk.Kind + "." + gvk.Version + "." + gvk.Group); err != nil {
			if kates.IsUnknownKind(err) {
				return usageErrorf("%s: object %d (%s): the server does not serve kind %s of %s, and no CustomResourceDefinition given defines it%s",
					m.source, m.index, describeManifest(m), gvk.Kind, gvk.GroupVersion(), didYouMean(c, gvk.Group, err))
			}
			return failure(err)
		}
	}
	return nil
}

// readChecked reads the manifests in's files name and connects, then checks every kind is
// served or defined among them (checkKinds) and every namespace agrees with -n
// (checkNamespaces): what apply and diff need before they send anything.
func readChecked(o *options, in *inputFlags) ([]manifest, *kates.Client, error) {
	ms, err := in.read(o.in)
	if err != nil {
		return nil, nil, err
	}
	c, err := o.client()
	if err != nil {
		return nil, nil, err
	}
	if err := checkKinds(c, ms); err != nil {
		return nil, nil, err
	}
	if err := checkNamespaces(o, c, ms); err != nil {
		return nil, nil, err
	}
	return ms, c, nil
}

// checkNamespaces refuses, as kubectl does, a namespaced object whose manifest names another
// namespace than the one -n gives: applying it to either would surprise someone. Without -n,
// the manifest's namespace is used, and the kubeconfig's for objects that name none.
func checkNamespaces(o *options, c *kates.Client, ms []manifest) error {
	if o.config.Namespace == nil || *o.config.Namespace == "" {
		return nil
	}
	flag := *o.config.Namespace
	defined := crdKinds(ms)
	for _, m := range ms {
		ns := m.obj.GetNamespace()
		if ns == "" || ns == flag {
			continue
		}
		gvk := m.obj.GetObjectKind().GroupVersionKind()
		if _, ok := defined[gvk.GroupKind()]; !ok {
			mapping, err := c.Mapping(gvk.Kind + "." + gvk.Version + "." + gvk.Group)
			if err != nil || mapping.Scope.Name() != meta.RESTScopeNameNamespace {
				continue // cluster-scoped: the server ignores a namespace (unknown kinds are checkKinds')
			}
		}
		return usageErrorf("%s: object %d (%s): its namespace %q does not match the namespace %q given with -n; pass -n %s, or leave the namespace out of the manifest",
			m.source, m.index, describeManifest(m), ns, flag, ns)
	}
	return nil
}

// refsFromArgs turns TYPE/NAME arguments, or TYPE [NAME...], into references, checking every
// kind: an unknown one is a usage error. Without names, TYPE selects by -l and -A.
func refsFromArgs(c *kates.Client, args []string, in *inputFlags) ([]any, error) {
	if len(args) == 0 {
		return nil, nil
	}
	if _, err := fields.ParseSelector(in.fieldSelector); err != nil {
		return nil, usageErrorf("--field-selector %q: %v", in.fieldSelector, err)
	}
	var refs []any
	slashed := strings.Contains(args[0], "/")
	for _, a := range args {
		if strings.Contains(a, "/") != slashed {
			return nil, usageErrorf("arguments must be all TYPE/NAME or TYPE NAME...; got %q", strings.Join(args, " "))
		}
	}
	check := func(kind string) error {
		if _, err := c.Mapping(kind); err != nil {
			if kates.IsUnknownKind(err) {
				return usageErrorf("%v", err)
			}
			return failure(err)
		}
		return nil
	}
	if slashed {
		for _, a := range args {
			kind, name, _ := strings.Cut(a, "/")
			if kind == "" || name == "" || strings.Contains(name, "/") {
				return nil, usageErrorf("%q is not TYPE/NAME", a)
			}
			if err := check(kind); err != nil {
				return nil, err
			}
			refs = append(refs, kates.ObjectRef{Kind: kind, Name: name})
		}
		return refs, nil
	}
	kinds, err := expandTypes(c, args[0])
	if err != nil {
		return nil, err
	}
	for _, kind := range kinds {
		if len(args) == 1 {
			refs = append(refs, kates.ObjectRef{Kind: kind, LabelSelector: in.selector, FieldSelector: in.fieldSelector, AllNamespaces: in.allNamespaces})
			continue
		}
		for _, name := range args[1:] {
			refs = append(refs, kates.ObjectRef{Kind: kind, Name: name})
		}
	}
	return refs, nil
}

// expandTypes resolves a TYPE argument as kubectl does: a comma-separated list ("deploy,svc"),
// each a kind or resource, or else a category ("all": the resources whose discovery entry
// lists it). A name that is neither is a usage error naming it.
func expandTypes(c *kates.Client, arg string) ([]string, error) {
	var kinds []string
	for t := range strings.SplitSeq(arg, ",") {
		if t == "" {
			return nil, usageErrorf("%q: an empty TYPE in the list", arg)
		}
		_, err := c.Mapping(t)
		switch {
		case err == nil:
			kinds = append(kinds, t)
		case !kates.IsUnknownKind(err):
			return nil, failure(err)
		default:
			resources, ok := c.Category(t)
			if !ok {
				return nil, usageErrorf("%v", err)
			}
			kinds = append(kinds, resources...)
		}
	}
	return kinds, nil
}

// objectsFor reads the objects a command works on: -f files, or arguments; not both, and not
// neither.
func objectsFor(o *options, c *kates.Client, in *inputFlags, args []string) ([]any, error) {
	switch {
	case len(in.files) > 0 && len(args) > 0:
		return nil, usageErrorf("give objects with -f or as arguments, not both")
	case len(in.files) == 0 && len(args) == 0:
		return nil, usageErrorf("no objects: give -f FILE|DIR|- or TYPE[/NAME] arguments")
	case len(args) > 0:
		return refsFromArgs(c, args, in)
	}
	ms, err := readManifests(in.files, in.recursive, o.in)
	if err != nil {
		return nil, err
	}
	if err := checkKinds(c, ms); err != nil {
		return nil, err
	}
	if err := checkNamespaces(o, c, ms); err != nil {
		return nil, err
	}
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m.obj
	}
	return out, nil
}

// describeManifest names an object for messages: "Deployment web".
func describeManifest(m manifest) string {
	return fmt.Sprintf("%s %s", m.obj.GetObjectKind().GroupVersionKind().Kind, m.obj.GetName())
}

func isURL(p string) bool {
	return strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://")
}

// fetchTimeout bounds reading one -f URL.
const fetchTimeout = 30 * time.Second

// fetch reads a manifest from an http(s) URL, as kubectl apply -f URL does. Anything but 200
// OK is an error naming the status.
func fetch(url string) ([]byte, error) {
	client := &http.Client{Timeout: fetchTimeout}
	resp, err := client.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s", resp.Status)
	}
	return io.ReadAll(resp.Body)
}
