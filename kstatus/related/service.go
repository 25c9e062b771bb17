package related

import (
	"fmt"
	"net"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kates-dev/kates/kstatus"
)

// Reasons a Service that kstatus calls Current is InProgress for.
const (
	// ReasonEndpointsNotReady: a Pod the Service should reach is not yet a ready endpoint.
	ReasonEndpointsNotReady = "EndpointsNotReady"
	// ReasonEndpointsOutdated: a ready endpoint is a Pod the Service should no longer reach
	// (gone, terminating, no longer selected, not ready): traffic still goes where it should not.
	ReasonEndpointsOutdated = "EndpointsOutdated"
)

const (
	managedByLabel         = "endpointslice.kubernetes.io/managed-by"
	endpointSliceControler = "endpointslice-controller.k8s.io"
)

// explainService adds a Service's ready endpoints to its message when it selects Pods or is a
// load balancer: whether anything answers behind it is what its user wants to know next.
// Dual-stack Services have a slice per address family; the family with the most endpoints is
// the one counted in the message.
//
// A Service with a selector that kstatus calls Current is InProgress until, in every address
// family it serves, its ready endpoints are exactly the Pods it should send traffic to: those
// it selects that have an address of the family, have not finished, are not terminating and
// are Ready (with spec.publishNotReadyAddresses, every one with an address that has not
// finished, as the EndpointSlice controller then publishes). Both directions matter. The
// controller lags the Pods, so a wait that returned on "every endpoint is ready" would send
// the caller's first request to a Service that cannot reach a new Pod yet; and right after a
// rollout or a narrowed selector, the slices still list the old Pods as ready, so a wait that
// returned on "every ready Pod is an endpoint" would let traffic reach the old version.
func explainService(st *ObjectStatus, u *unstructured.Unstructured, x *Index) {
	typ, _, _ := unstructured.NestedString(u.Object, "spec", "type")
	sel, _, _ := unstructured.NestedStringMap(u.Object, "spec", "selector")
	if typ == "ExternalName" || (len(sel) == 0 && typ != "LoadBalancer") {
		return
	}
	views := endpointViews(x.slices[objectKey(u.GetNamespace(), u.GetName())])
	var best *familyView
	for _, v := range views {
		if best == nil || v.total > best.total {
			best = v
		}
	}
	if best == nil {
		best = &familyView{}
	}
	st.Message += fmt.Sprintf("; endpoints: %d/%d ready", best.ready, best.total)
	if st.Status != kstatus.CurrentStatus || len(sel) == 0 {
		return
	}

	pnra, _, _ := unstructured.NestedBool(u.Object, "spec", "publishNotReadyAddresses")
	selector := labels.SelectorFromSet(sel)
	pods := map[string]*unstructured.Unstructured{}
	for _, p := range x.podsByNS[u.GetNamespace()] {
		pods[p.Object.GetName()] = p.Object
	}
	families, _, _ := unstructured.NestedStringSlice(u.Object, "spec", "ipFamilies")
	if len(families) == 0 {
		// Not yet defaulted (a fixture, an old server): judge the families the slices have,
		// or, with none, any address at all.
		for f := range views {
			families = append(families, f)
		}
		if len(families) == 0 {
			families = []string{""}
		}
		sort.Strings(families)
	}
	for _, family := range families {
		v := views[family]
		if v == nil {
			v = &familyView{}
		}
		var missing, outdated []string
		for name, p := range pods {
			if selector.Matches(labels.Set(p.GetLabels())) && shouldBeReadyEndpoint(p, pnra, family) && !v.readyPods[name] {
				missing = append(missing, name)
			}
		}
		for name := range v.readyPods {
			p := pods[name]
			if p == nil || !selector.Matches(labels.Set(p.GetLabels())) || !shouldBeReadyEndpoint(p, pnra, family) {
				outdated = append(outdated, name)
			}
		}
		switch {
		case len(missing) > 0:
			sort.Strings(missing)
			st.Status, st.Reason = kstatus.InProgressStatus, ReasonEndpointsNotReady
			what := "is ready but not an endpoint yet"
			if pnra {
				what = "is not a ready endpoint yet"
			}
			st.Message = fmt.Sprintf("Endpoints: %d/%d ready; pod %s %s", best.ready, best.total, missing[0], what) + andMore(len(missing)-1)
			return
		case len(outdated) > 0:
			sort.Strings(outdated)
			st.Status, st.Reason = kstatus.InProgressStatus, ReasonEndpointsOutdated
			st.Message = fmt.Sprintf("Endpoints: %d/%d ready; pod %s is still a ready endpoint but %s", best.ready, best.total, outdated[0],
				whyNotAnEndpoint(pods[outdated[0]], selector, pnra)) + andMore(len(outdated)-1)
			return
		}
	}
}

func andMore(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d more %s)", n, plural(n, "pod", "pods"))
}

// familyView is what a Service's EndpointSlices of one address family say.
type familyView struct {
	ready, total int
	// readyPods holds the names of the Pods that are a ready endpoint in a slice the
	// EndpointSlice controller manages.
	readyPods map[string]bool
}

// endpointViews reads a Service's EndpointSlices, by address family ("IPv4", "IPv6").
func endpointViews(slices []Entry) map[string]*familyView {
	views := map[string]*familyView{}
	for _, s := range slices {
		family, _, _ := unstructured.NestedString(s.Object.Object, "addressType")
		v := views[family]
		if v == nil {
			v = &familyView{readyPods: map[string]bool{}}
			views[family] = v
		}
		// Slices someone else manages (rare for a Service with a selector) carry endpoints
		// the controller does not derive from the Pods: count them, but do not judge them.
		managed := s.Object.GetLabels()[managedByLabel]
		ours := managed == "" || managed == endpointSliceControler
		eps, _, _ := unstructured.NestedSlice(s.Object.Object, "endpoints")
		for _, ep := range eps {
			em, _ := ep.(map[string]any)
			v.total++
			// The API: a nil ready condition means ready.
			if ready, ok, _ := unstructured.NestedBool(em, "conditions", "ready"); ok && !ready {
				continue
			}
			v.ready++
			if kind, _, _ := unstructured.NestedString(em, "targetRef", "kind"); kind == "Pod" && ours {
				name, _, _ := unstructured.NestedString(em, "targetRef", "name")
				v.readyPods[name] = true
			}
		}
	}
	return views
}

// shouldBeReadyEndpoint reports whether the EndpointSlice controller lists Pod p as a ready
// endpoint of address family ("" for any) of a Service that selects it: it has an address of
// the family, has not finished, and is Ready and not terminating — or, with
// publishNotReadyAddresses, whatever its readiness.
func shouldBeReadyEndpoint(p *unstructured.Unstructured, publishNotReady bool, family string) bool {
	if phase, _, _ := unstructured.NestedString(p.Object, "status", "phase"); phase == "Succeeded" || phase == "Failed" {
		return false
	}
	if !hasAddress(p, family) {
		return false
	}
	if publishNotReady {
		return true
	}
	return p.GetDeletionTimestamp() == nil && podReady(p)
}

// whyNotAnEndpoint says why Pod p (nil if it does not exist) should not be a ready endpoint,
// in words that follow "but".
func whyNotAnEndpoint(p *unstructured.Unstructured, selector labels.Selector, publishNotReady bool) string {
	phase := ""
	if p != nil {
		phase, _, _ = unstructured.NestedString(p.Object, "status", "phase")
	}
	switch {
	case p == nil:
		return "no longer exists"
	case !selector.Matches(labels.Set(p.GetLabels())):
		return "no longer matches the selector"
	case phase == "Succeeded" || phase == "Failed":
		return "has finished"
	case p.GetDeletionTimestamp() != nil && !publishNotReady:
		return "is terminating"
	case !hasAddress(p, ""):
		return "has no address"
	}
	return "is not ready"
}

// hasAddress reports whether Pod p has an IP of family ("IPv4", "IPv6"; "" for any).
func hasAddress(p *unstructured.Unstructured, family string) bool {
	var ips []string
	list, _, _ := unstructured.NestedSlice(p.Object, "status", "podIPs")
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			if ip, ok := m["ip"].(string); ok && ip != "" {
				ips = append(ips, ip)
			}
		}
	}
	if len(ips) == 0 {
		if ip, _, _ := unstructured.NestedString(p.Object, "status", "podIP"); ip != "" {
			ips = append(ips, ip)
		}
	}
	for _, s := range ips {
		if family == "" {
			return true
		}
		ip := net.ParseIP(s)
		if ip == nil {
			continue
		}
		if v4 := ip.To4() != nil; (family == "IPv4") == v4 {
			return true
		}
	}
	return false
}

// podReady reports whether Pod p's Ready condition is True.
func podReady(p *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(p.Object, "status", "conditions")
	for _, c := range conds {
		if cm, _ := c.(map[string]any); cm["type"] == "Ready" {
			return cm["status"] == "True"
		}
	}
	return false
}
