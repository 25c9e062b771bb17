package kates

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/kstatus"
)

// crdResource is the resource of CustomResourceDefinitions.
var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// kindFactsTimeout bounds the CRD reads a Watch makes before it starts: facts it could not
// read in time are not known, which costs a verdict precision (kstatus rule 6), never a hang.
const kindFactsTimeout = 5 * time.Second

// kindFacts holds what the CRDs of the custom resources a Client has watched say about their
// status (kstatus.KindInfo), by group, version and kind; nil for a kind with no CRD to read.
// Each Watch reads the CRDs of its kinds afresh, so a changed CRD counts from the next Watch
// (and so the next Wait); Explain reads the latest.
type kindFacts struct {
	mu    sync.Mutex
	kinds map[schema.GroupVersionKind]*kstatus.KindInfo
}

// kindFactsFor reads the KindInfo of each custom resource kind among gvks from its CRD, once
// per Watch: one GET per kind, in parallel, before any object is judged, so that judging costs
// a map lookup. Kinds Scheme knows are built in and skipped; a kind whose CRD cannot be read
// (an aggregated API's, or no right to get CRDs) is left out: kstatus then knows nothing of it.
func (c *Client) kindFactsFor(ctx context.Context, gvks map[schema.GroupVersionKind]string) map[schema.GroupVersionKind]*kstatus.KindInfo {
	out := map[schema.GroupVersionKind]*kstatus.KindInfo{}
	ctx, cancel := context.WithTimeout(ctx, kindFactsTimeout)
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for gvk, resource := range gvks {
		if Scheme.Recognizes(gvk) || gvk.Group == "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			crd, err := c.dynamic.Resource(crdResource).Get(ctx, resource+"."+gvk.Group, metav1.GetOptions{})
			if err != nil {
				return
			}
			info, ok := kstatus.KindInfoFromCRD(crd, gvk.Version)
			if !ok {
				return
			}
			mu.Lock()
			out[gvk] = info
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(out) > 0 {
		c.facts.mu.Lock()
		if c.facts.kinds == nil {
			c.facts.kinds = map[schema.GroupVersionKind]*kstatus.KindInfo{}
		}
		for k, v := range out {
			c.facts.kinds[k] = v
		}
		c.facts.mu.Unlock()
	}
	return out
}

// kindsLookup is kstatus.Options.Kinds over facts.
func kindsLookup(facts map[schema.GroupVersionKind]*kstatus.KindInfo) func(apiVersion, kind string) *kstatus.KindInfo {
	if len(facts) == 0 {
		return nil
	}
	return func(apiVersion, kind string) *kstatus.KindInfo {
		gv, err := schema.ParseGroupVersion(apiVersion)
		if err != nil {
			return nil
		}
		return facts[gv.WithKind(kind)]
	}
}

// knownKind is kstatus.Options.Kinds over the facts the Client's watches last read.
func (c *Client) knownKind(apiVersion, kind string) *kstatus.KindInfo {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil
	}
	c.facts.mu.Lock()
	defer c.facts.mu.Unlock()
	return c.facts.kinds[gv.WithKind(kind)]
}
