package kstatus

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWordIter(t *testing.T) {
	for in, want := range map[string]string{
		"PermissionDenied":      "permission denied",
		"INVALID_SPEC":          "invalid spec",
		"HTTPError":             "http error",
		"ReplicaFailure":        "replica failure",
		"not ready: YAML parse": "not ready yaml parse",
		"v1beta2Ready":          "v1beta2 ready",
		"":                      "",
		"___":                   "",
	} {
		var got []string
		it := wordIter{s: in}
		for w, ok := it.next(); ok; w, ok = it.next() {
			got = append(got, string(w))
		}
		if diff := cmp.Diff(want, strings.Join(got, " ")); diff != "" {
			t.Errorf("words(%q) mismatch (-want +got):\n%s", in, diff)
		}
	}
}

func TestClassifyReason(t *testing.T) {
	checkWords(t, "classifyReason", classifyReason, map[string]reasonKind{
		"InvalidConfigurationError":       reasonTerminal,
		"PermissionDenied":                reasonTerminal,
		"AuthorizationFailed":             reasonTerminal,
		"ValidationFailed":                reasonTerminal,
		"BackoffLimitExceeded":            reasonTerminal,
		"InitializingTimeout":             reasonTerminal, // ends in a terminal word
		"WaitingForValidation":            reasonTransient,
		"OperandNotReady":                 reasonTransient,
		"DependencyNotReady":              reasonTransient,
		"InvalidSecretWaitingForRotation": reasonTransient,
		"Error":                           reasonUnclear,
		"ReconciliationFailed":            reasonUnclear,
		"":                                reasonUnclear,
	})
	// Messages: the narrower set, so a network error's words do not read as terminal.
	checkWords(t, "classifyMessage", classifyMessage, map[string]reasonKind{
		"Get https://x: context deadline exceeded":         reasonUnclear,
		"dial tcp 10.0.0.1:443: i/o timeout":               reasonUnclear,
		"Code: 403. Errors: permission denied":             reasonTerminal,
		"not ready: YAML parse error on templates/x.yaml":  reasonTerminal,
		"Waiting for the webhook to be invalid-free again": reasonTransient,
	})
}

func TestPhaseClassOf(t *testing.T) {
	checkWords(t, "phaseClassOf", phaseClassOf, map[string]phaseKind{
		"RUNNING":                phaseRunning,
		"STATE_SUCCESS":          phaseDone,
		"HEALTH_OK":              phaseUp,
		"HEALTH_ERR":             phaseFailed,
		"Externally Provisioned": phaseUp,
		"ONLINE_PARTIAL":         phaseProgressing,
		"WaitApplied":            phaseProgressing,
		"DEPLOY_FAILED":          phaseFailed,
		"FailedValidation":       phaseFailed,
		"PartiallyFailed":        phaseFailed,
		"NotRunning":             phaseUnknown, // a negation is not read by its words
		"NoError":                phaseUnknown,
		"SPLIT_BRAIN":            phaseUnknown,
		"Suspend":                phaseSuspended,
		"":                       phaseUnknown,
	})
}

func TestClassifyCondition(t *testing.T) {
	checkWords(t, "classifyCondition", classifyCondition, map[string]condClass{
		"Failed":                   condFailure,
		"ReconcileError":           condFailure,
		"ReplicaFailure":           condFailure,
		"Degraded":                 condFailure,
		"Complete":                 condDone,
		"EarlyStopped":             condDone,
		"Running":                  condRunning,
		"Created":                  condStarted,
		"Restarting":               condBusy,
		"UpgradeInProgress":        condBusy,
		"HeadPodReady":             condPositive,
		"SecretSynced":             condPositive,
		"Suspended":                condSuspended,
		"RetryLimitExceeded":       condFailure,
		"Imported":                 condParticiple,
		"Evicted":                  condOther,
		"AccessDenied":             condFailure,
		"AvailableForProvisioning": condOther,
		"Manageable":               condOther,
	})
}

// TestEachStateFieldBounds holds the walk of status to its bounds: the first maxEntries
// entries of a list, and objects of at most maxFields fields, so that a status holding an
// inventory costs no more than its first entries.
func TestEachStateFieldBounds(t *testing.T) {
	members := map[string]any{"state": "Failed"}
	for i := 0; i < maxFields; i++ {
		members["m"+strconv.Itoa(i)] = map[string]any{"state": "Up"}
	}
	var list []any
	for i := 0; i < maxEntries+5; i++ {
		list = append(list, map[string]any{"state": "Ready"})
	}
	status := map[string]any{
		"members": members, // maxFields+1 fields: not read
		"pd":      map[string]any{"phase": "Normal"},
		"stores":  list,
	}
	var got []string
	eachStateField(status, "", func(at stateField, value string) { got = append(got, at.path()+"="+value) })
	if len(got) != 1+maxEntries {
		t.Errorf("read %d fields, want %d (pd.phase and the first %d stores): %v", len(got), 1+maxEntries, maxEntries, got)
	}
	for _, g := range got {
		if strings.HasPrefix(g, "members.") {
			t.Errorf("read %s in an object of %d fields", g, len(members))
		}
	}
}

// checkWords holds a vocabulary function to a table of words and the class each is sorted
// into.
func checkWords[K comparable](t *testing.T, name string, classify func(string) K, cases map[string]K) {
	t.Helper()
	for in, want := range cases {
		if got := classify(in); got != want {
			t.Errorf("%s(%q) = %v, want %v", name, in, got, want)
		}
	}
}

// TestErrorListBounds checks that judgeCounts reads errors in the first maxEntries entries of
// a list only, as eachStateField reads states: an error further down is not read.
func TestErrorListBounds(t *testing.T) {
	var list []any
	for i := 0; i < maxEntries+5; i++ {
		list = append(list, map[string]any{"name": "m" + strconv.Itoa(i)})
	}
	status := map[string]any{"byPod": list}
	list[maxEntries-1].(map[string]any)["errors"] = []any{"within the bound"}
	if v := judgeCounts(nil, status, nil); v.status != FailedStatus {
		t.Fatalf("an error in entry %d: %+v, want Failed", maxEntries-1, v)
	}
	delete(list[maxEntries-1].(map[string]any), "errors")
	list[maxEntries].(map[string]any)["errors"] = []any{"past the bound"}
	if v := judgeCounts(nil, status, nil); v.status != "" {
		t.Fatalf("an error in entry %d: %+v, want it not read", maxEntries, v)
	}
}
