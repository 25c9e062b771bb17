package luahealth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/kstatus"
)

// scriptFile is the name Argo CD gives a health check in its directory layout.
const scriptFile = "health.lua"

// LoadFS compiles every GROUP/KIND/health.lua of fsys, laid out as Argo CD's
// resource_customizations directory: a core-group kind is KIND/health.lua; a group folder
// "_" or "_.example.com" is the group pattern "*" or "*.example.com", and a kind folder "_"
// is "*". Other files (Argo CD's testdata, actions) are skipped. Every script that does not
// compile is an error, naming its path and line.
func LoadFS(fsys fs.FS, opts Options) ([]*Check, error) {
	var checks []*Check
	var errs []error
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || path.Base(p) != scriptFile {
			return nil
		}
		parts := strings.Split(p, "/")
		var group, kind string
		switch len(parts) {
		case 2:
			kind = parts[0]
		case 3:
			group, kind = parts[0], parts[1]
		default:
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		group, kind = fromFolder(group), fromFolder(kind)
		if err := checkPattern(group, kind); err != nil {
			errs = append(errs, fmt.Errorf("luahealth: %s: %w", p, err))
			return nil
		}
		c, err := Compile(p, group, kind, string(data), opts)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		checks = append(checks, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("luahealth: %w", err)
	}
	return checks, errors.Join(errs...)
}

// fromFolder turns Argo CD's "_" wildcard spelling into kstatus': "_" is "*", and a
// leading "_." is "*.". (kstatus has no any-group pattern: checkPattern refuses a group
// "_"; Argo CD ships none.)
func fromFolder(s string) string {
	if s == "_" {
		return "*"
	}
	if rest, ok := strings.CutPrefix(s, "_."); ok {
		return "*." + rest
	}
	return s
}

// LoadDir is LoadFS made into a RuleSet, for kstatus.Options.Rules.
func LoadDir(fsys fs.FS, opts Options) (*kstatus.RuleSet, error) {
	checks, err := LoadFS(fsys, opts)
	if err != nil {
		return nil, err
	}
	return RuleSet(checks...)
}

const (
	healthKeyPrefix = "resource.customizations.health."
	oldKey          = "resource.customizations"
)

// LoadConfigMap compiles the health checks of an argocd-cm ConfigMap (YAML or JSON):
// each resource.customizations.health.GROUP_KIND key (KIND alone for the core group;
// group "*.suffix" and kind "*" as patterns; Argo CD's "all" and other globs are errors,
// kstatus having no pattern for them), and the
// health.lua of each "GROUP/KIND" entry of the older resource.customizations key. Other
// keys, and Argo CD's useOpenLibs (the sandbox is the same for every check), are ignored.
// source names the ConfigMap in errors.
func LoadConfigMap(data []byte, source string, opts Options) ([]*Check, error) {
	u := &unstructured.Unstructured{}
	j, err := yaml.YAMLToJSON(data)
	if err == nil {
		err = json.Unmarshal(j, &u.Object)
	}
	if err != nil {
		return nil, fmt.Errorf("luahealth: %s: %w", source, err)
	}
	return LoadConfigMapObject(u, source, opts)
}

// LoadConfigMapObject is LoadConfigMap on a decoded ConfigMap.
func LoadConfigMapObject(u *unstructured.Unstructured, source string, opts Options) ([]*Check, error) {
	if source == "" {
		source = "ConfigMap " + u.GetName()
	}
	if u.GetKind() != "ConfigMap" {
		return nil, fmt.Errorf("luahealth: %s: a %s, want a ConfigMap", source, u.GetKind())
	}
	data, _, err := unstructured.NestedStringMap(u.Object, "data")
	if err != nil {
		return nil, fmt.Errorf("luahealth: %s: %w", source, err)
	}
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var checks []*Check
	var errs []error
	add := func(name, gk, script string) {
		group, kind, err := splitGroupKind(gk)
		if err == nil {
			var c *Check
			if c, err = Compile(source+": "+name, group, kind, script, opts); err == nil {
				checks = append(checks, c)
				return
			}
		} else {
			err = fmt.Errorf("luahealth: %s: %s: %w", source, name, err)
		}
		errs = append(errs, err)
	}
	for _, k := range keys {
		switch {
		case strings.HasPrefix(k, healthKeyPrefix):
			gk := strings.TrimPrefix(k, healthKeyPrefix)
			if gk == "all" {
				gk = "*/*" // refused by checkPattern, with a message saying why
			} else if g, kind, ok := strings.Cut(gk, "_"); ok {
				if strings.Contains(kind, "_") {
					errs = append(errs, fmt.Errorf("luahealth: %s: key %s: want GROUP_KIND with one underscore", source, k))
					continue
				}
				gk = g + "/" + kind
			}
			add(k, gk, data[k])
		case k == oldKey:
			var old map[string]struct {
				HealthLua string `json:"health.lua"`
			}
			if err := yaml.Unmarshal([]byte(data[k]), &old); err != nil {
				errs = append(errs, fmt.Errorf("luahealth: %s: %s: %w", source, k, err))
				continue
			}
			gks := make([]string, 0, len(old))
			for gk := range old {
				gks = append(gks, gk)
			}
			sort.Strings(gks)
			for _, gk := range gks {
				if s := old[gk].HealthLua; s != "" {
					add(k+"."+gk, gk, s)
				}
			}
		}
	}
	if len(checks) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("luahealth: %s: no health check (no %sGROUP_KIND key, no %s key with a health.lua)", source, healthKeyPrefix, oldKey))
	}
	return checks, errors.Join(errs...)
}

// splitGroupKind splits "group/kind", or "kind" for the core group, checking that any
// pattern is one kstatus matches.
func splitGroupKind(gk string) (group, kind string, err error) {
	group, kind, ok := strings.Cut(gk, "/")
	if !ok {
		group, kind = "", gk
	}
	return group, kind, checkPattern(group, kind)
}

// checkPattern accepts the patterns kstatus matches: a group "*.suffix", a kind "*".
func checkPattern(group, kind string) error {
	if kind == "" || (strings.Contains(kind, "*") && kind != "*") {
		return fmt.Errorf("kind %q: want a kind or \"*\"", kind)
	}
	if strings.Contains(group, "*") {
		suffix, ok := strings.CutPrefix(group, "*.")
		if !ok || suffix == "" || strings.HasPrefix(suffix, ".") || strings.HasSuffix(suffix, ".") || strings.Contains(suffix, "*") {
			return fmt.Errorf("group %q: want a group or \"*.suffix\" (kstatus has no pattern for any group)", group)
		}
	}
	return nil
}

// decodeConfigMap is the kstatus.RuleDecoder this package registers: LoadRules then reads
// an argocd-cm ConfigMap's health checks, with default Options.
func decodeConfigMap(doc []byte, source string) (*kstatus.RuleSet, bool, error) {
	var probe struct {
		Kind string         `json:"kind"`
		Data map[string]any `json:"data"`
	}
	if err := yaml.Unmarshal(doc, &probe); err != nil || probe.Kind != "ConfigMap" {
		return nil, false, nil
	}
	checks, err := LoadConfigMap(doc, source, Options{})
	if err != nil {
		return nil, true, err
	}
	rs, err := RuleSet(checks...)
	return rs, true, err
}

func init() {
	kstatus.RegisterRuleDecoder(decodeConfigMap)
}
