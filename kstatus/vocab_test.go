package kstatus

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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

func TestFailureText(t *testing.T) {
	checkWords(t, "failureText", failureText, map[string]bool{
		"Invalid ... cannot both be enabled":                                       true,
		"reconcile error: secret app-ca is missing a key":                          true,
		"no such host: error resolving api.example.com":                            true,
		"No warning or error messages observed applying the TuneD daemon profile.": false,
		"the sync completed without errors":                                        false,
		"no errors":                                                                false,
		"Waiting for the error budget to refill":                                   false,
	})
}

func TestClassifyReason(t *testing.T) {
	checkWords(t, "classifyReason", classifyReason, map[string]reasonKind{
		"NotOwned":                        reasonTerminal,
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
		"ConnectionRefused":               reasonTransient, // a server not listening yet
		"AccessRefused":                   reasonTerminal,
		"ImmutableFieldChanged":           reasonTerminal,
		"IncompatibleVersion":             reasonTerminal,
		"RetriesExhausted":                reasonTerminal,
		"IncorrectVersionFormat":          reasonTerminal,
		"ActionRequired":                  reasonTerminal, // a person must act
		"UserActionRequired":              reasonTerminal,
		"NoActionRequired":                reasonUnclear, // nothing to do
		"ActionRequiredWaiting":           reasonTransient,
		"ErrorCreatingChild":              reasonUnclear, // the action that failed, not work under way
		"CreatingChild":                   reasonTransient,
		"DuplicateSingleton":              reasonTerminal, // one object too many
	})
	// Messages: the narrower set, so a network error's words do not read as terminal.
	checkWords(t, "classifyMessage", classifyMessage, map[string]reasonKind{
		"Please change the namespace in the CR configuration.":                                 reasonTerminal,
		"Please wait for the installer":                                                        reasonTransient,
		"The user provisioning has failed: the MySQL user's password must not be empty":        reasonTerminal,
		"There is an existing Service \"square\" that the Deployer does not own.":              reasonTerminal,
		"ServiceNetwork shared-network is owned by another controller":                         reasonTerminal,
		"illegal version string \"v1.10\"":                                                     reasonTerminal,
		"Namespace is managed by a different operator":                                         reasonTerminal,
		"Deployment is managed by the operator":                                                reasonUnclear,
		"Packages namespaces must start with: eksa-packages":                                   reasonTerminal,
		"waiting for the database: it must be ready first":                                     reasonTransient,
		"Get https://x: context deadline exceeded":                                             reasonUnclear,
		"dial tcp 10.0.0.1:443: i/o timeout":                                                   reasonUnclear,
		"service account can not be configured with public client":                             reasonTerminal,
		"TLS cannot be required if it is not enabled":                                          reasonTerminal,
		"Operation cannot be fulfilled on daemonsets.apps \"x\": the object has been modified": reasonUnclear,
		"Code: 403. Errors: permission denied":                                                 reasonTerminal,
		"not ready: YAML parse error on templates/x.yaml":                                      reasonTerminal,
		"Waiting for the webhook to be invalid-free again":                                     reasonTransient,
		"[HelmRelease] install retries exhausted":                                              reasonTerminal,
		"TTL must be 1 when proxied":                                                           reasonTerminal,
		"the MaxReplicas must not be smaller than MinReplicas":                                 reasonTerminal,
		"vaultConnectionRef must be set":                                                       reasonTerminal,
		"Please set Wireguard.Spec.Address if necessary.":                                      reasonTerminal,
		"the cluster must be ready first":                                                      reasonUnclear,
		"the pool must not be in use":                                                          reasonUnclear,
	})
}

func TestPhaseClassOf(t *testing.T) {
	checkWords(t, "phaseClassOf", phaseClassOf, map[string]phaseKind{
		"TransientError": phaseProgressing, "TRANSIENT_FAILURE": phaseProgressing,
		"RUNNING":                phaseRunning,
		"Doing":                  phaseRunning,     // Beihang's cloudrun: Pending, Doing, Done, Failed
		"under-reconcilation":    phaseProgressing, // Kloudlite's checks (its spelling)
		"UnderMaintenance":       phaseProgressing,
		"UnderReplicated":        phaseUnknown, // a shortfall, not an activity
		"STATE_SUCCESS":          phaseDone,
		"HEALTH_OK":              phaseUp,
		"HEALTH_ERR":             phaseFailed,
		"Externally Provisioned": phaseUp,
		"ONLINE_PARTIAL":         phaseProgressing,
		"WaitApplied":            phaseProgressing,
		"DEPLOY_FAILED":          phaseFailed,
		"FailedValidation":       phaseFailed,
		"PartiallyFailed":        phaseFailed,
		"UnableToBootstrap":      phaseFailed,
		"CheckingResources":      phaseProgressing, // an activity, then what it acts on
		"reporting_user_a":       phaseUnknown,     // lower case: as often a name
		"NotInjected":            phaseProgressing, // a participle negated: not reached
		"PartiallyInjected":      phaseProgressing,
		"Not Ready":              phaseProgressing,
		"not_required":           phaseUnknown, // no need: no state to reach
		"StartImport":            phaseProgressing,
		"UpdateQuota":            phaseProgressing, // a step, the verb as a command
		"Stop Daemons":           phaseProgressing, // the PGC ceph-operator, a disabled cluster shutting down
		"LaunchDaemons":          phaseProgressing,
		"CopyDisks":              phaseProgressing,
		"ScaleSucceeded":         phaseDone, // its outcome, read first
		"UpdateFailed":           phaseFailed,
		"updateQuota":            phaseUnknown, // lower case: as often a name
		"Update":                 phaseUnknown, // the verb alone says no step
		"MaxRetriesReached":      phaseFailed,
		"RetryLimitExceeded":     phaseFailed,
		"UnableToConnect":        phaseUnknown, // a server not reached: a retry clears it
		"NotRunning":             phaseUnknown, // a negation is not read by its words
		"NoError":                phaseUnknown,
		"SPLIT_BRAIN":            phaseUnknown,
		"Suspend":                phaseSuspended,
		"Failing":                phaseFailed,
		"":                       phaseUnknown,
		// Participles of a state reached, an operation's outcome, a breakage, a lag behind
		// the spec, work not begun, and a state reached negated.
		"Configured":   phaseUp,
		"IN_SYNC":      phaseUp,
		"UPDATED":      phaseUp,
		"Installed":    phaseUp,
		"Restored":     phaseDone,
		"Migrated":     phaseDone,
		"CrashLoop":    phaseFailed,
		"Corrupted":    phaseFailed,
		"NEEDS_UPDATE": phaseProgressing,
		"Outdated":     phaseProgressing,
		"Inqueue":      phaseProgressing,
		"NotStarted":   phaseProgressing,
		"Unbound":      phaseProgressing,
		"NotAllocated": phaseProgressing,
		"Unhealthy":    phaseFailed, // not a negated Healthy: a failure of its own
		"Started":      phaseUnknown,
		"Accepted":     phaseUnknown, // accepted is not yet acted on
	})
}

func TestClassifyCondition(t *testing.T) {
	checkWords(t, "classifyCondition", classifyCondition, map[string]condClass{
		"Failed":                   condFailure,
		"ReconcileError":           condFailure,
		"ReplicaFailure":           condFailure,
		"NoImagePullFailed":        condPositive, // named for an absence: True is normal
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
		"Evicted":                  condBefell,
		"RolloutBlocked":           condBefell,
		"AccessDenied":             condFailure,
		"AvailableForProvisioning": condOther,
		"Manageable":               condOther,
		"FailedStart":              condFailure,
		"ErrorOccurred":            condFailure, // Red Hat's managed-gitops, Argo CD's ApplicationSet
		"ErrorsFound":              condFailure,
		"Terminal":                 condFailure, // mikluko's NATS operator
		"FailedCreate":             condFailure,
		"FailureDomainsReady":      condPositive, // failure is not its first word alone
		"Passing":                  condPositive, // a check passing: a state, not work
		"InSync":                   condPositive,
		"UpToDate":                 condPositive,
		"Sleeping":                 condSuspended, // asleep: a suspension by another name
		"Listening":                condOther,     // a steady state, not work under way
		"Unhealthy":                condBefell,
		"TimedOut":                 condFailure,
		"OutOfSync":                condBusy,
		"PolicyViolated":           condBefell,
		"Disconnected":             condBefell,
		"ScalingLimited":           condBefell,
		"Built":                    condParticiple,
		"RollingDeployment":        condBusy, // the activity first
		"UpdatingConfig":           condBusy,
		"ScalingActive":            condOther, // whether it may run, not work
		"Hibernated":               condSuspended,
	})
}

// TestStatusFieldNames: the names of status fields and objects that say what they hold:
// settings (not states), operations (whose Running is work under way).
func TestStatusFieldNames(t *testing.T) {
	checkWords(t, "isSettings", isSettings, map[string]bool{
		"failureRule": true, "updateStrategy": true, "config": true, "podTemplate": true,
		"policy": true, "appliedSpec": true, "ruleStatus": false, "operationContext": false,
		"Spec": false, "spec": true, "inspection": false,
	})
	checkWords(t, "namesOperation", namesOperation, map[string]bool{
		"operationContext.taskStatus": true, "tasks[2].state": true, "currentOperation.phase": true,
		"phase": false, "taskStatus": false, "cluster.status": false,
	})
}

// TestStopAskedBooleans: a boolean of spec that says to stop, or not to run; or no
// replicas asked for.
func TestStopAskedBooleans(t *testing.T) {
	for spec, want := range map[string]string{
		`{"started": false}`:                 "spec.started",
		`{"started": true}`:                  "",
		`{"running": false, "replicas": 1}`:  "spec.running",
		`{"shutdown": true}`:                 "spec.shutdown",
		`{"stop": false}`:                    "",
		`{"enabled": false}`:                 "", // disabling is not stopping: see stateAsked
		`{"active": false, "state": "Stop"}`: "spec.active",
		`{"replicas": 0}`:                    "spec.replicas",
		`{"replicas": 3}`:                    "",
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(spec), &m); err != nil {
			t.Fatal(err)
		}
		if got := stopAsked(map[string]any{"spec": m}); got != want {
			t.Errorf("stopAsked(spec %s) = %q, want %q", spec, got, want)
		}
	}
}

// TestClassCacheAgrees: classifyCondition's cache answers as the classification it keeps,
// for types that share slots of the cache and are looked up from several goroutines at
// once (run with -race), and whatever was cached in the slot before.
func TestClassCacheAgrees(t *testing.T) {
	types := []string{"Failed", "Running", "Complete", "ArtifactInStorage", "Ready", "UpgradeInProgress",
		"Suspended", "Degraded", strings.Repeat("VeryLongConditionType", 5) + "Failed"}
	for i := range 600 { // more types than slots: every slot is replaced
		types = append(types, "Type"+strconv.Itoa(i)+"Failed", "Type"+strconv.Itoa(i)+"Synced")
	}
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 3 {
				for _, ty := range types {
					if got, want := classifyCondition(ty), classifyConditionType(ty); got != want {
						t.Errorf("classifyCondition(%q) = %v, want %v", ty, got, want)
						return
					}
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
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
	eachStateField(status, "", nil, nil, func(at stateField, value string) { got = append(got, at.path()+"="+value) })
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
	if v := judgeCounts(nil, status, &partShort{}, nil, nil); v.status != FailedStatus {
		t.Fatalf("an error in entry %d: %+v, want Failed", maxEntries-1, v)
	}
	delete(list[maxEntries-1].(map[string]any), "errors")
	list[maxEntries].(map[string]any)["errors"] = []any{"past the bound"}
	if v := judgeCounts(nil, status, &partShort{}, nil, nil); v.status != "" {
		t.Fatalf("an error in entry %d: %+v, want it not read", maxEntries, v)
	}
}

func TestIssue33Vocabularies(t *testing.T) {
	t.Run("namesErrorType", func(t *testing.T) {
		checkWords(t, "namesErrorType", namesErrorType, map[string]bool{
			"Error": true, "Failed": true, "ReconcileError": true, "InstallFailure": true, "SyncErrors": true,
			"Degraded": false, "PoolConflict": false, "ErrorFree": false, "Ready": false, "": false,
		})
	})
	t.Run("clientError", func(t *testing.T) {
		checkWords(t, "clientError", clientError, map[string]bool{
			"failed to create service: [400 ServiceCreate]: Plan startup-1234 is not available": true,
			"request failed with status code 403":                                               true,
			"HTTP 422: spec.size is too small":                                                  true,
			"GET /v1/projects/x: 404 Not Found":                                                 true,
			"[429 TooManyRequests]: slow down":                                                  false, // clears by itself
			"[409 Conflict]: retry":                                                             false,
			"replication factor 400 is larger than 3":                                           false, // a number, not a code
			"[4000 Weird]": false,
			"":             false,
		})
	})
	t.Run("changeUnderWay", func(t *testing.T) {
		checkWords(t, "changeUnderWay", changeUnderWay, map[string]bool{
			"Updating": true, "ROLLING_UPDATE": true, "ScalingUp": true, "Rebuilding": true, "upgrading": true,
			"Pending": false, "Creating": false, "Provisioning": false, "Running": false, "": false,
		})
	})
	t.Run("cancelWord", func(t *testing.T) {
		checkWords(t, "cancelWord", cancelWord, map[string]bool{
			"canceled": true, "Cancelled": true, "TERMINATED": false, "RunCanceled": true,
			"Stopped": false, "Halted": false, "Cancelling": false, "Aborted": false,
		})
	})
	t.Run("runKindName", func(t *testing.T) {
		checkWords(t, "runKindName", func(k string) bool { return runKindName(k, nil) }, map[string]bool{
			"Migration": true, "MigMigration": true, "LocalVolumeMigrate": true, "DirectVolumeMigration": true,
			"MigrationPolicy": false, "MigrationPlan": false, "ScheduledMigration": false,
			"Build": false, "BuildRun": true, "Task": false, "Test": false,
			"OpenLibertyDump": true, "Dump": true, "DumpPolicy": false, "ScheduledDump": false,
		})
	})
	t.Run("stateAsked", func(t *testing.T) {
		obj := func(spec map[string]any) map[string]any { return map[string]any{"spec": spec} }
		for _, c := range []struct {
			spec  map[string]any
			value string
			want  string
		}{
			{map[string]any{"state": "Disabled"}, "Disabled", "spec.state"},
			{map[string]any{"powerState": "PoweredOff"}, "POWERED_OFF", "spec.powerState"},
			{map[string]any{"state": "Disabled"}, "Disabling", ""}, // in motion, not there yet
			{map[string]any{"state": "Enabled"}, "Disabled", ""},
			{map[string]any{"mode": "Disabled"}, "Disabled", ""}, // not a field named for a state
			{map[string]any{"state": "Off"}, "Off", "spec.state"},
		} {
			if got := stateAsked(obj(c.spec), c.value); got != c.want {
				t.Errorf("stateAsked(%v, %q) = %q, want %q", c.spec, c.value, got, c.want)
			}
		}
	})
}

// TestReasonErrorStale: an error written as wrangler writes it (False, reason Error) for an
// older generation than the object's says nothing about the spec it has now: not Failed.
// The same condition for the latest generation is.
func TestReasonErrorStale(t *testing.T) {
	object := func(observed int64) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": "w", "namespace": "ns", "generation": int64(2)},
			"status": map[string]any{"conditions": []any{
				map[string]any{"type": "Available", "status": "True", "reason": "Up", "observedGeneration": int64(2)},
				map[string]any{"type": "Synced", "status": "False", "reason": "Error", "observedGeneration": observed,
					"message": "invalid value for field size"}}},
		}}
	}
	if res, err := Compute(object(2)); err != nil || res.Status != FailedStatus {
		t.Errorf("the error for the latest generation: %+v, %v; want Failed", res, err)
	}
	if res, err := Compute(object(1)); err != nil || res.Status == FailedStatus {
		t.Errorf("the error for the generation before: %+v, %v; want it not read as Failed", res, err)
	}
}

// TestStateFieldsSkipNumbers: a field named …State that holds a number, a duration or a
// time (DataWorkflowServices' elapsedTimeLastState "29.880323s") is no state: the walk
// does not report it, at the top of status or one object down, while a word beside it is.
func TestStateFieldsSkipNumbers(t *testing.T) {
	status := map[string]any{
		"state":                "PreRun",
		"elapsedTimeLastState": "29.880323s",
		"stage":                map[string]any{"lastState": "2026-03-02T12:03:12Z", "state": "Running"},
	}
	var got []string
	eachStateField(status, "Workflow", nil, nil, func(at stateField, value string) {
		got = append(got, value)
	})
	slices.Sort(got)
	assert.Equal(t, []string{"PreRun", "Running"}, got)
}

func TestWaitsForPerson(t *testing.T) {
	for value, want := range map[string]bool{
		"WaitingForUser":          true,
		"Waiting for user action": true,
		"AwaitingManualApproval":  true,
		"WAITING_FOR_ADMIN":       true,
		"AwaitingApproval":        false, // auto-approval may give it
		"WaitingForOperator":      false, // the software as often as a person
		"UserWaiting":             false, // no wait before the person
		"Running":                 false,
		"WaitingForDependencies":  false,
	} {
		if got := waitsForPerson(value); got != want {
			t.Errorf("waitsForPerson(%q) = %v, want %v", value, got, want)
		}
	}
}

// TestUnreachable checks that a server not reached is read in any case: Java clients write
// "Connection refused", Go's net package "connection refused".
func TestUnreachable(t *testing.T) {
	checkWords(t, "unreachable", unreachable, map[string]bool{
		"Connect to keycloak-http.keycloak.svc:80 failed: Connection refused (Connection refused)": true,
		"dial tcp 10.96.41.17:5432: connect: connection refused":                                   true,
		"java.net.UnknownHostException: No such host is known (db.internal)":                       true,
		"Connection reset by peer": true,
		"failed to connect to nexus api: could not get user 'user': HTTP 401": false,
		"password authentication failed for user \"app\"":                     false,
	})
}

// TestMisspeltPositive checks that a state-reached word one letter off, or with two letters
// swapped, is read as the word meant, and that other words are not.
func TestMisspeltPositive(t *testing.T) {
	checkWords(t, "misspeltPositive", misspeltPositive, map[string]string{
		"avaliable":    "available", // cluster-proxy's ServiceResolverAvaliable
		"availible":    "available",
		"reconcilled":  "reconciled",
		"provisoned":   "provisioned",
		"available":    "",
		"availability": "",
		"installing":   "",
		"connection":   "",
		"healthz":      "healthy",
		"deplyed":      "deployed",
		"ready":        "", // too short to guess at
	})
	assert.Equal(t, condPositive, classifyConditionType("ServiceResolverAvaliable"))
}

// TestWaitsOnAnother checks the error texts read as a wait on another object, and those
// that are not.
func TestWaitsOnAnother(t *testing.T) {
	checkWords(t, "waitsOnAnother", waitsOnAnother, map[string]bool{
		"Zone is not Ready yet":                        true,
		"PowerDNSServer authdns is InitializingSchema": true,
		"2026-01-10 10:19:30.662190 Waiting osdpl status APPLIED, current state is APPLYING": true,
		"database is provisioning":                      true,
		"Resource ID is missing in the spec":            false,
		"Unable to find provisioning interface enp7s0":  false,
		"invalid value: spec.replicas must be positive": false,
		"stopped waiting: permission denied":            false,
	})
}
