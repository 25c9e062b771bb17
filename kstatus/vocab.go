package kstatus

import (
	"strings"
	"sync/atomic"
)

// The vocabularies inference (rule 6) reads words with. Each is documented in doc.go; a
// word added here changes what kinds no rule names are judged, so each is one that
// operators use for the same state, and an unclear word is left out: a value or reason
// inference does not know does not decide.

// normalize writes s into buf lowercased, without the characters that are not letters or
// digits ("HEALTH_OK" → "healthok", "Externally Provisioned" → "externallyprovisioned"),
// and returns the result; ok is false when s does not fit in buf. It does not allocate
// when buf is on the caller's stack.
func normalize(s string, buf []byte) (string, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		default:
			continue
		}
		if n == len(buf) {
			return "", false
		}
		buf[n] = c
		n++
	}
	return string(buf[:n]), true
}

// stateWordPrefixes are the prefixes some operators write before a state word in capitals
// (Tinkerbell's STATE_RUNNING, Ceph's HEALTH_OK): a value that is a prefix and a known
// word is read as the word.
var stateWordPrefixes = [...]string{"state", "phase", "status", "health"}

// phaseClassOf sorts a phase or state value: the word itself (phases, any case and
// separator), a known word after a prefix of stateWordPrefixes, or a word that names a
// failure (CreateFailed, SyncError, FailedValidation, PartiallyFailed).
//
// The answers are kept in a wordCache: the values a cluster's objects publish are few and
// repeat (Running, Ready, Succeeded), and each value costs a normalization and lookups.
func phaseClassOf(s string) phaseKind {
	return phaseCache.get(s, phaseClassOfValue)
}

// phaseClassOfValue is phaseClassOf without the cache.
func phaseClassOfValue(s string) phaseKind {
	if head, _, found := strings.Cut(s, ":"); found && head != "" && len(head) < len(s)-1 && strings.IndexByte(head, ' ') < 0 {
		// A word and then what it is about ("Error: invalid spec.schedule: …", as
		// cosmos-operator writes status.status): the word says the state.
		if k := phaseClassOfValue(head); k == phaseFailed {
			return k
		}
	}
	if k := sentenceClass(s); k != phaseUnknown {
		return k
	}
	var buf [40]byte
	w, ok := normalize(s, buf[:])
	if !ok || w == "" {
		return phaseUnknown
	}
	if k := phases[w]; k != phaseUnknown {
		return k
	}
	for _, p := range stateWordPrefixes {
		if len(w) > len(p) && w[:len(p)] == p {
			if k := phases[w[len(p):]]; k != phaseUnknown {
				return k
			}
		}
	}
	if len(w) > len("transient") && w[:len("transient")] == "transient" {
		// A failure the state itself calls transient (cosmos-operator's TransientError,
		// "system is retrying"): work a retry clears.
		return phaseProgressing
	}
	if namesFailure(w) || unableTo(w) || limitReached(w) || errNamed(s, w) {
		return phaseFailed
	}
	// A state reached, negated (Unbound, Unprovisioned, NotAllocated): not reached yet.
	// Unhealthy, a failure, is in phases itself.
	for _, neg := range [...]string{"un", "not"} {
		if len(w) > len(neg) && w[:len(neg)] == neg && phases[w[len(neg):]] == phaseUp {
			return phaseProgressing
		}
	}
	// Under and an activity named as a noun (Kloudlite's checks: under-reconcilation;
	// UnderReview, UnderConstruction, UnderMaintenance): the activity is under way. Not
	// Under and a participle (UnderReplicated, UnderProvisioned), which names a shortfall.
	if len(w) > len("under")+3 && w[:len("under")] == "under" && underWay(w[len("under"):]) {
		return phaseProgressing
	}
	// A state named for the start of something (KubeEye's InspectRule: StartImport): the
	// work has begun, not ended.
	if len(w) > len("start")+3 && w[:len("start")] == "start" && !hasPrefix(w, "started") && !hasPrefix(w, "startup") {
		return phaseProgressing
	}
	// Any past participle negated by Not, or done in part (Datadog's chaos-controller:
	// injectionStatus NotInjected, PartiallyInjected): a state not reached, or not yet
	// wholly. (PartiallyFailed names a failure, read above.)
	if len(w) > len("not") && w[:len("not")] == "not" && refusedParticiples[w[len("not"):]] {
		return phaseFailed // NotSupported, NotAllowed: as in compoundClass
	}
	for _, pre := range [...]string{"not", "partially"} {
		if rest := w[min(len(pre), len(w)):]; len(w) > len(pre)+4 && w[:len(pre)] == pre && hasSuffix(rest, "ed") && !needParticiples[rest] {
			// (Not NotRequired or NotNeeded: no need, which is no state to reach.)
			return phaseProgressing
		}
	}
	if saysNotFound(s) {
		// Something the object refers to is not there (Giant Swarm's App state
		// app-version-not-found): it may yet appear, or a person must change the spec;
		// either way not a state to call done.
		return phaseProgressing
	}
	if k := compoundClass(s); k != phaseUnknown {
		return k
	}
	return activityClass(s, w)
}

// sentenceClass reads a state written as a sentence of three words or more, as
// CloudNativePG's phases are and operators that mirror them publish (DocumentDB's
// status.status "Setting up primary", "Cluster is in an unrecoverable state, needs manual
// intervention"): one whose words say a person must act (as a message's would) is Failed,
// one that starts with an activity (-ing) is work under way. Any other is left to the
// words' own classes.
func sentenceClass(s string) phaseKind {
	if strings.Count(s, " ") < 2 || strings.IndexByte(s, ':') >= 0 {
		// (A text with a colon quotes an error, read as one: route-monitor-operator's
		// errorStatus "invalid RawSlo: …".)
		return phaseUnknown
	}
	if classifyMessage(s) == reasonTerminal {
		return phaseFailed
	}
	first, _, _ := strings.Cut(s, " ")
	var buf [24]byte
	if w, ok := normalize(first, buf[:]); ok && len(w) >= 5 && hasSuffix(w, "ing") && !steadyActivities[w] && phases[w] == phaseUnknown {
		return phaseProgressing
	}
	return phaseUnknown
}

// activityClass reads a value of one word that names an activity (Remediating, Draining,
// Compacting), or an activity then what it acts on (CheckingResources): work under way,
// which ends by itself. Not the -ing words that name a steady state (steadyActivities), and
// not a value of several words ending in -ing, whose other words may say more.
func activityClass(s, w string) phaseKind {
	if len(w) < 7 || steadyActivities[w] {
		return phaseUnknown
	}
	if !hasSuffix(w, "ing") {
		// Or an activity and what it acts on, the activity first (robolaunch's Submariner:
		// CheckingResources; ConfiguringEnvironment): the verb says the work is under way.
		// (Capitalised, as states are written: a lower-case value of several words is as
		// often a name, reporting_user_a.)
		if s[0] < 'A' || s[0] > 'Z' {
			return phaseUnknown
		}
		it := wordIter{s: s}
		first, ok := it.next()
		if !ok {
			return phaseUnknown
		}
		// Or the activity as a command and what it acts on (Tongdun's td-redis-operator:
		// UpdateQuota while slots move; forklift's CopyDisks, nebula-operator's ScaleOut,
		// hwameistor's SyncReplica): a step of a workflow, named for what it does. No word
		// of it names an outcome (compoundClass read those: UpdateFailed, ScaleSucceeded).
		step := stepVerbs[string(first)]
		if !step && (len(first) < 7 || !hasSuffix(string(first), "ing") || steadyActivities[string(first)] || phases[string(first)] != phaseUnknown) {
			return phaseUnknown
		}
		if _, more := it.next(); !more {
			return phaseUnknown
		}
		return phaseProgressing
	}
	if wordCount(s) != 1 {
		return phaseUnknown
	}
	return phaseProgressing
}

// stepVerbs are verbs that, as the first word of a state in capitals and followed by what
// they act on, name a step of work under way (UpdateQuota, CopyDisks, SyncReplica).
var stepVerbs = map[string]bool{
	"update": true, "create": true, "delete": true, "sync": true, "copy": true, "scale": true,
	"migrate": true, "upgrade": true, "install": true, "provision": true, "rebalance": true,
	"restore": true, "deploy": true, "build": true, "apply": true, "fetch": true,
	"download": true, "pull": true, "push": true, "configure": true, "clone": true,
	"repair": true, "recover": true, "prepare": true, "resize": true, "import": true,
	"export": true, "transfer": true, "convert": true, "drain": true, "rotate": true,
	// (The Polar Geospatial Center's ceph-operator: "Stop Daemons" while a disabled cluster
	// shuts down, "Launch Daemons".)
	"stop": true, "start": true, "launch": true, "restart": true, "remove": true,
	"register": true, "cleanup": true,
}

// steadyActivities are -ing words that name a state an object stays in, not work that ends.
// The -ing words of phases (Running, Serving, Waiting, Missing, Warning) are read there first.
var steadyActivities = map[string]bool{
	"idling": true, "sleeping": true, "hibernating": true, "listening": true, "streaming": true,
	"monitoring": true, "watching": true, "working": true, "existing": true, "remaining": true,
	"standing": true, "nothing": true, "managing": true, "operating": true,
}

// compoundClass sorts a value of several words by its words ("ONLINE_PARTIAL" is online
// but partial: InProgress; "WaitApplied" waits), the worst word deciding. A value that
// starts with a negation ("NotRunning") is not sorted: its words say the opposite of it.
func compoundClass(s string) phaseKind {
	k, n := phaseUnknown, 0
	afterIn, afterRollback, afterRolled, afterNot := false, false, false, false
	it := wordIter{s: s}
	for w, ok := it.next(); ok; w, ok = it.next() {
		if n == 0 && (string(w) == "not" || string(w) == "no" || string(w) == "non") {
			return phaseUnknown
		}
		n++
		c := phases[string(w)]
		switch {
		case (afterNot || afterIn) && (string(w) == "valid" || string(w) == "validated"):
			// A spec not valid (KubeVela terraform-controller's
			// ConfigurationSpecNotValid), or Invalid cased as two words (shaowenchen's ops:
			// TaskRun runStatus DataInValid): a person must fix it.
			c = phaseFailed
		case afterNot && refusedParticiples[string(w)]:
			// What the controller will not do for the spec as written, after the thing it
			// is about (Tencent's tke-extend-network-controller: CLBPodBinding state
			// NodeTypeNotSupported): a person must change the spec.
			c = phaseFailed
		case afterNot && c == phaseUp:
			// A state reached, negated after the thing it is about
			// (ProviderNotReady): not reached yet.
			c = phaseProgressing
		case afterIn && string(w) == "progress":
			// CREATE_IN_PROGRESS, UPDATE_IN_PROGRESS (CloudFormation's stack states, as
			// operators that mirror it publish them): work under way.
			c = phaseProgressing
		case afterRollback && (string(w) == "complete" || string(w) == "completed"), afterRolled && string(w) == "back":
			// ROLLBACK_COMPLETE, UPDATE_ROLLBACK_COMPLETE, RolledBack: the change failed
			// and was undone; what the spec asks is not what runs.
			c = phaseFailed
		}
		afterIn, afterRollback, afterRolled = string(w) == "in", string(w) == "rollback", string(w) == "rolled"
		afterNot = string(w) == "not"
		if c != phaseUnknown && (k == phaseUnknown || phaseRank(c) > phaseRank(k)) {
			k = c
		}
	}
	if n < 2 {
		return phaseUnknown
	}
	return k
}

// refusedParticiples, negated by Not in a state (NodeTypeNotSupported, NotAllowed), name
// what the controller refuses for the spec as written: a person must change it.
var refusedParticiples = map[string]bool{"supported": true, "allowed": true, "permitted": true}

// namesFailure reports whether the normalized word w is a compound naming a failure: it
// starts or ends with "failed", "failure" or "error" (but is not only a word such as
// "noerror" or "errorfree" that says the opposite).
func namesFailure(w string) bool {
	if len(w) > 2 && w[:2] == "no" || hasSuffix(w, "free") || hasSuffix(w, "none") {
		return false
	}
	for _, f := range [...]string{"failed", "failure", "error", "errored"} {
		if hasPrefix(w, f) || hasSuffix(w, f) {
			return true
		}
	}
	return false
}

// errNamed reports a state of several words whose first is Err, as Go names its error
// values (thavlik's vpn-operator: MaskProvider phase ErrSecretNotFound, ErrVerifyFailed):
// the state names itself an error, whatever follows, a thing not found included. w is s
// normalized.
func errNamed(s, w string) bool {
	if !hasPrefix(w, "err") || len(w) <= len("err") {
		return false
	}
	it := wordIter{s: s}
	first, _ := it.next()
	return string(first) == "err"
}

// limitReached reports a state, w normalized, named for a limit of tries reached
// (Burrito's TerraformLayer: MaxRetriesReached, "requires manual intervention"): the
// controller has stopped trying.
func limitReached(w string) bool {
	if !hasSuffix(w, "reached") && !hasSuffix(w, "exceeded") {
		// Or the limit named after the verb (keikoproj's alert-manager: WavefrontAlert
		// state ClientExceededLimit, never retried).
		return hasSuffix(w, "exceededlimit") || hasSuffix(w, "reachedlimit")
	}
	return strings.Contains(w, "max") || strings.Contains(w, "limit") || strings.Contains(w, "retries") || strings.Contains(w, "attempts")
}

// unableTo reports a state named for what the controller could not do (Tarantool's
// UnableToBootstrap), w normalized: a failure, but not a server it could not reach
// (UnableToConnect), which a retry clears.
func unableTo(w string) bool {
	const p = "unableto"
	if len(w) <= len(p) || w[:len(p)] != p {
		return false
	}
	rest := w[len(p):]
	return !hasPrefix(rest, "connect") && !hasPrefix(rest, "reach")
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
func hasSuffix(s, p string) bool { return len(s) >= len(p) && s[len(s)-len(p):] == p }

// hasWordSuffix reports s ending in p with something before it: a name of which p is the
// last word or words (reconciliationFailures, not Failures alone).
func hasWordSuffix(s, p string) bool { return len(s) > len(p) && s[len(s)-len(p):] == p }

// wordIter yields the words of a CamelCase, snake_case, kebab-case or spaced identifier,
// lowercased ("PermissionDenied" → "permission", "denied"; "INVALID_SPEC" → "invalid",
// "spec"); digits stay with their word, and a word longer than its buffer is cut in two.
// It is a struct rather than a callback so that the buffer stays on the caller's stack.
type wordIter struct {
	s   string
	i   int
	buf [32]byte
}

// next returns the next word, valid until the following call (m[string(w)] looks it up
// without allocating), and false at the end.
func (it *wordIter) next() ([]byte, bool) {
	s, n := it.s, 0
	for ; it.i < len(s); it.i++ {
		i, c := it.i, s[it.i]
		lower := 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		upper := 'A' <= c && c <= 'Z'
		if !lower && !upper {
			if n > 0 {
				it.i++
				return it.buf[:n], true
			}
			continue
		}
		// A capital starts a word after a lowercase letter, or before one when it ends a
		// run of capitals ("HTTPError" → "http", "error").
		if upper && n > 0 && (isLower(s[i-1]) || isDigit(s[i-1]) || i+1 < len(s) && isLower(s[i+1]) && isUpper(s[i-1])) {
			return it.buf[:n], true
		}
		if n == len(it.buf) {
			return it.buf[:n], true
		}
		if upper {
			c += 'a' - 'A'
		}
		it.buf[n] = c
		n++
	}
	return it.buf[:n], n > 0
}

// last returns the last word of it.s, as next returns it (valid while it lives), or nil
// when it.s has none.
func (it *wordIter) last() []byte {
	var last []byte
	for w, ok := it.next(); ok; w, ok = it.next() {
		last = w
	}
	return last
}

func isLower(c byte) bool  { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool  { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return isLower(c | 0x20) }

// reasonKind sorts a condition's reason by the words in it.
type reasonKind uint8

const (
	reasonUnclear   reasonKind = iota // says neither: the condition's own reading stands
	reasonTerminal                    // an error a person must fix: Failed
	reasonTransient                   // work that ends by itself: InProgress
)

// terminalWords name, alone, an error that retrying the same spec does not clear: a spec
// or configuration that is wrong, access that is refused, a limit that was reached.
var terminalWords = map[string]bool{
	"invalid": true, "forbidden": true, "unauthorized": true, "unauthenticated": true,
	"denied": true, "misconfigured": true, "misconfiguration": true, "malformed": true,
	"illegal":     true, // the Hierarchical Namespace Controller's IllegalParent, IllegalManagedLabel
	"incorrect":   true, // cluster-api-operator's IncorrectVersionFormat
	"unsupported": true, "fatal": true, "unrecoverable": true, "unreconcilable": true, "permanent": true, "permanently": true,
	"exceeded": true, "rejected": true, "crashloopbackoff": true, "crash": true,
	"undefined": true, "refused": true, "refusing": true, "lost": true,
	"timeout": true,
	// "User Intervention Required", "ManualInterventionNeeded": a person must act.
	"intervention": true,
	// The controller gave up on the object (llmaz's AbortProcessing, for a name another
	// object already holds).
	"abort": true, "aborted": true,
	// Conflicted: Gateway API's reason for a policy or route another one overrides by
	// precedence (Accepted False): it stays so until a person resolves the conflict.
	"conflicted": true, "conflicting": true,
	// A name another object holds (AKS app-routing's IngressClassCollision: "IngressClass
	// already exists and is not owned by this controller").
	"collision": true,
	// A second object where one is allowed (zitadel-operator's DuplicateSingleton, another
	// DefaultDomainPolicy already managing the instance): a person must remove one.
	"duplicate": true, "duplicated": true,
	// Ranges or sets that overlap one another (Linkerd's EgressNetwork,
	// EgressReasonNetworkOverlap; NATS's "subjects overlap with an existing stream"): a
	// conflict in what the spec names.
	"overlap": true, "overlaps": true, "overlapping": true,
	// A change the API or the software will not take: an immutable field changed, an
	// incompatible version.
	"immutable": true, "incompatible": true,
}

// pleaseVerbs follow "please" in a request to change the spec ("Please set
// Wireguard.Spec.Address", falcon-operator's "Please change the namespace in the CR
// configuration"): a person must act. Not "please wait".
var pleaseVerbs = map[string]bool{"set": true, "specify": true, "provide": true, "change": true, "fix": true,
	"correct": true, "update": true, "remove": true, "delete": true, "use": true, "choose": true, "rename": true}

// limitWords follow max or maximum in a text that says a limit of tries was reached.
var limitWords = map[string]bool{"attempts": true, "retries": true, "restarts": true, "tries": true}

// subjectWords name what a reason is about when it says only "error" or "failed": an
// error of configuration, validation, the spec, initialization, authentication or
// permission is a person's to fix ("ConfigError", "ValidationFailed", "InitError").
var subjectWords = map[string]bool{
	"config": true, "configuration": true, "validation": true, "spec": true, "init": true,
	"initialization": true, "authentication": true, "authorization": true, "auth": true,
	"permission": true, "permissions": true, "credential": true, "credentials": true,
	"schema": true, "syntax": true, "parse": true, "parsing": true,
	// A certificate or a license that expired (TLSCertificateExpired, LicenseExpired) is
	// replaced by a person, as bad credentials are.
	"certificate": true, "certificates": true, "cert": true, "license": true,
}

// errorWords say that the subject failed.
var errorWords = map[string]bool{"error": true, "errors": true, "failed": true, "failure": true, "expired": true}

// transientWords name a state that ends by itself: a reason with one of them is
// InProgress whatever else it says ("WaitingForValidation", "DependencyNotReady").
var transientWords = map[string]bool{
	"waiting": true, "wait": true, "pending": true, "progressing": true, "reconciling": true,
	"creating": true, "provisioning": true, "initializing": true, "updating": true,
	"dependency": true, "dependencies": true, "retrying": true, "retry": true,
	"requeue": true, "requeued": true, "temporary": true, "temporarily": true,
	"transient": true, "throttled": true, "notready": true, "yet": true, "inprogress": true,
	"starting": true, "deleting": true, "scaling": true, "upgrading": true,
	"registering": true,
}

// classifyReason sorts a reason: transient words win over terminal ones (a reason that
// says it waits is waiting), and a reason with neither is unclear.
func classifyReason(reason string) reasonKind {
	return classifyWords(reason, terminalWords)
}

// messageTerminalWords are the terminalWords that mean the same in free text. Messages
// quote errors from elsewhere, where "exceeded", "timeout" or "fatal" are often a network
// call's ("context deadline exceeded", "i/o timeout") and clear by themselves.
var messageTerminalWords = map[string]bool{
	"invalid": true, "forbidden": true, "unauthorized": true, "unauthenticated": true,
	"denied": true, "misconfigured": true, "misconfiguration": true, "malformed": true,
	"unsupported": true, "refusing": true, "intervention": true,
	// "illegal version string \"v1.10\"" (cluster-api-operator's preflight, with reason
	// IncorrectVersionFormat): a value the spec gave that cannot be.
	"illegal": true, "incorrect": true,
	// "Failed permanently: must specify a CaPoolId" (cert-manager's issuer-lib): the
	// controller says it will not retry.
	"permanent": true, "permanently": true,
}

// classifyMessage sorts a condition's message as classifyReason sorts a reason, with the
// narrower messageTerminalWords. It is read only where the reason is unclear.
func classifyMessage(msg string) reasonKind {
	return classifyWords(msg, messageTerminalWords)
}

// classifyWords sorts text by its words: transient words win over terminal ones (a reason
// that says it waits is waiting), unless the text ends in a terminal word, which says what
// became of the wait ("InitializingTimeout"); text with neither is unclear.
func classifyWords(text string, terminalSet map[string]bool) reasonKind {
	if text == "" {
		return reasonUnclear
	}
	terminal, subject, errWord, transient, lastTerminal, not, max, in, already, conn := false, false, false, false, false, false, false, false, false, false
	must, please, limit, re, than := 0, false, false, false, false // must: 1 after "must", 2 after "must be" or "must not"
	var check, lacking, keyAt, several, another wordsSince         // "check"; "no" or "missing"; "key"; "multiple" or "more than one"; "another"
	instruction := false                                           // the text tells a person what to do
	ownedBy := 0                                                   // 1 after "owned", "managed" or "controlled", 2 after "by", 3 at the word after it
	article := false                                               // the word before was "a" or "an"
	cannot := 0                                                    // 1 after "cannot", "can not" or "can't", 2 after "be"
	afterCan := false                                              // the word before was "can"
	action, afterNo := 0, false                                    // action: 1 after "action", 2 after "no action"; afterNo: the word before was "no"
	isAre := false                                                 // the word before was "is" or "are"
	errNow := false                                                // the word is one of errorWords (afterErr: the word before was)
	constraint := false                                            // the text states a constraint the spec breaks
	// In a reason (one identifier, no spaces) "Not" and "Ready" together are NotReady; in
	// free text "not ready: <an error>" is the error's.
	identifier := strings.IndexByte(text, ' ') < 0
	it := wordIter{s: text}
	for w, ok := it.next(); ok; w, ok = it.next() {
		lastTerminal = false
		afterNot, afterMax, afterIn, afterAlready, afterConn, afterMust, afterPlease, afterLimit, afterRe := not, max, in, already, conn, must, please, limit, re
		re = string(w) == "re"
		afterThan := than
		than = string(w) == "than"
		check.next(string(w) == "check" || string(w) == "see", 8)
		afterArticle := article
		article = string(w) == "a" || string(w) == "an"
		afterCannot := cannot
		switch {
		case string(w) == "cannot", afterCan && (string(w) == "not" || string(w) == "t"):
			cannot = 1
		case cannot == 1 && string(w) == "be":
			cannot = 2
		default:
			cannot = 0
		}
		afterCan = string(w) == "can"
		afterErr := errNow
		errNow = errorWords[string(w)]
		afterAction := action
		switch {
		case string(w) == "action":
			action = 1
			if afterNo {
				action = 2 // "no action required": nothing to do
			}
		default:
			action = 0
		}
		afterNo = string(w) == "no"
		afterIsAre := isAre
		isAre = string(w) == "is" || string(w) == "are"
		if afterIsAre && string(w) == "required" && !identifier {
			// "rangeBegin and rangeEnd are required" (Metal3's ironic-standalone-operator),
			// "Restoration from etcd snapshot is required" (Rancher's RKEControlPlane): a
			// value the spec lacks, or an act, a person must supply.
			terminal = true
		}
		if afterAction == 1 && (string(w) == "required" || string(w) == "needed") {
			// "ActionRequired" (terranetes' Ready reason for an error the operator's own
			// detector says a person must fix), "user action required": a person must act,
			// as "intervention" says.
			terminal, lastTerminal = true, true
		}
		switch {
		case string(w) == "owned" || string(w) == "managed" || string(w) == "controlled" || string(w) == "claimed":
			ownedBy = 1
		case ownedBy == 1 && string(w) == "by":
			ownedBy = 2
		case ownedBy == 2, ownedBy == 3 && afterArticle:
			ownedBy = 3 // the word after "by" (or after "by a"): read below, then reset
		default:
			ownedBy = 0
		}
		// "Another DNSRecordSet owns this record" (Datum's NotOwner): the name is another
		// object's, as "owned by another" says.
		another.next(!identifier && string(w) == "another", 4)
		if another > 1 && (string(w) == "owns" || string(w) == "holds") {
			terminal = true
		}
		limit = limitWords[string(w)]
		not = string(w) == "not" || string(w) == "longer" // "no longer" negates as "not" does
		conn = string(w) == "connection"
		please = string(w) == "please"
		switch {
		case string(w) == "must":
			must = 1
		case must == 1 && (string(w) == "be" || string(w) == "not"), must == 2 && string(w) == "be" && afterNot:
			must = 2
		default:
			must = 0
		}
		if afterMust == 2 && must == 0 && !requiredState(w) || afterMust == 1 && constraintVerbs[string(w)] ||
			afterCannot == 2 && cannotBeWords[string(w)] ||
			afterPlease && pleaseVerbs[string(w)] {
			// A constraint the spec breaks ("TTL must be 1 when proxied", "MaxReplicas must
			// not be smaller than MinReplicas", "must be set"), or a request to change it
			// ("Please set Wireguard.Spec.Address"): a person must act. Not a state the
			// object waits for ("must be ready before scaling"). It outweighs the words
			// of work before it ("The user provisioning has failed: the MySQL user's
			// password must not be empty"), as an instruction does.
			terminal, constraint = true, true
		}
		if check > 1 && (string(w) == "logs" || string(w) == "log" || string(w) == "details") {
			// "Check job logs", "Check operator logs for details", "Check
			// status.lastPrepareError for details": the controller sends a person to find
			// out what went wrong. An instruction outweighs the words of the error before
			// it ("prepare failed. Check ...").
			instruction = true
		}
		// More than one object where one is allowed ("multiple BackendSecurityPolicies found
		// for AIServiceBackend", "multiple NVIDIADrivers match node"): a person must remove
		// one.
		several.next(!identifier && (string(w) == "multiple" || string(w) == "one" && afterThan), 5)
		if several > 1 {
			switch string(w) {
			case "found", "match", "matches", "matched", "matching", "exist", "exists", "select", "selected":
				terminal = true
			}
		}
		// A key a Secret or a map lacks ("secret has no key named apiToken", "missing azure
		// client secret key client-secret", "no AWS Access Key ID Found", "map has no entry
		// for key"): the object it names must be edited by a person.
		lacking.next(!identifier && (string(w) == "no" || string(w) == "missing"), 5)
		isKey := string(w) == "key" && !identifier
		keyAt.next(isKey, 5)
		if isKey && lacking > 0 || keyAt > 1 && (string(w) == "missing" || afterNot && string(w) == "found") {
			terminal = true // "no AWS Access Key", "key apiToken not found", "key ... missing"
		}
		if afterRe && string(w) == "apply" || string(w) == "reapply" {
			// "Delete the managed secret and re-apply": the controller tells a person what
			// to do before it can go on.
			instruction = true
		}
		in = string(w) == "in"
		already = string(w) == "already"
		max = string(w) == "max" || string(w) == "maximum"
		switch {
		case afterConn && string(w) == "refused":
			// "ConnectionRefused", "connection refused": a server not listening yet, which
			// a retry clears; not a refusal of access.
			transient = true
		case afterLimit && string(w) == "exhausted":
			// "install retries exhausted", "RetriesExhausted": a limit reached.
			terminal, lastTerminal = true, true
		case afterMax && limitWords[string(w)]:
			// "after maximum attempts", "max retries (5) exceeded": a limit reached.
			terminal, lastTerminal = true, true
		case afterErr && strings.HasSuffix(string(w), "ing"):
			// The action an error befell ("ErrorCreatingChild", "failed updating"): what
			// failed, not work under way.
		case transientWords[string(w)], identifier && afterNot && string(w) == "ready", afterIn && string(w) == "progress":
			// "in progress" in free text says what "InProgress" says in one word.
			// "NotReady" is one word of transientWords; "OperandNotReady" says it in two.
			transient = true
		case ownedBy == 3 && (string(w) == "another" || string(w) == "other" || string(w) == "different"):
			// "is owned by another controller", "managed by another operator": the object
			// the controller would write is someone else's (as NotOwned).
			terminal, lastTerminal = true, true
		case terminalSet[string(w)], afterNot && string(w) == "supported",
			afterNot && (string(w) == "owned" || string(w) == "own" || string(w) == "owner"),
			!identifier && afterNot && (string(w) == "permitted" || string(w) == "allowed" || string(w) == "allow" || string(w) == "permit"),
			afterAlready && (string(w) == "exist" || string(w) == "exists"):
			// "not supported" and "no longer supported" say Unsupported in words, "not
			// permitted", "not allowed" and "does not allow" (knative-gcp's "the policy does
			// not allow creation") in a sentence Forbidden (not a reason's
			// NotAllowedByListeners, the Gateway API's state of a route a listener does
			// not take yet); "already exists" says AlreadyExists, a name another object
			// holds, and "not owned" (NotOwned, "an existing Service … that the Deployer
			// does not own": Knative's and riff's reconcilers) that it is another's.
			terminal, lastTerminal = true, true
		case subjectWords[string(w)]:
			subject = true
		case errorWords[string(w)]:
			errWord = true
		}
	}
	switch {
	case lastTerminal, instruction, constraint:
		return reasonTerminal
	case transient:
		return reasonTransient
	case terminal || subject && errWord:
		return reasonTerminal
	}
	return reasonUnclear
}

// wordsSince counts, in classifyWords' walk, the words read since a trigger word: 1 at the
// trigger, then 2, 3... up to a reach, and 0 beyond it or before any trigger.
type wordsSince int

// next takes in the next word: whether it is a trigger, and how far the count reaches.
func (n *wordsSince) next(trigger bool, reach wordsSince) {
	switch {
	case trigger:
		*n = 1
	case *n > 0 && *n < reach:
		*n++
	default:
		*n = 0
	}
}

// cannotBeWords follow "cannot be" (or "can not be") in a constraint a value breaks ("TLS
// cannot be required if it is not enabled", "service account can not be configured with
// public client", "backups cannot be created for unmanaged keycloak instances"). Not
// "cannot be fulfilled" (the API server's conflict, which a retry clears), reached, found
// or scheduled, which say something not there yet.
var cannotBeWords = map[string]bool{"required": true, "configured": true, "created": true, "used": true,
	"set": true, "changed": true, "modified": true, "removed": true, "added": true, "combined": true,
	"specified": true, "enabled": true, "disabled": true, "empty": true, "negative": true, "zero": true,
	"greater": true, "less": true, "larger": true, "smaller": true, "longer": true, "shorter": true, "more": true}

// constraintVerbs follow "must" in a constraint a value breaks ("namespaces must start
// with: eksa-packages", "name must match", "must contain at least one"), as "must be" does.
var constraintVerbs = map[string]bool{"start": true, "begin": true, "end": true, "contain": true,
	"match": true, "include": true, "have": true, "equal": true, "specify": true, "reference": true, "use": true}

// requiredState reports a word that, after "must be", names a state some object is to
// reach ("must be ready", "must be running first") rather than a value the spec must take.
func requiredState(w []byte) bool {
	switch string(w) {
	case "ready", "running", "available", "healthy", "created", "deployed", "installed",
		"initialized", "provisioned", "started", "complete", "completed", "finished", "done",
		"reconciled", "synced", "bound", "attached", "mounted", "active", "established",
		"scheduled", "online", "up", "in", "present", "reachable", "deleted", "removed":
		return true
	}
	return false
}

// condClass sorts the condition types inference reads beyond the normal-true ones.
type condClass uint8

const (
	condOther      condClass = iota
	condFailure              // abnormal-true, names a failure: True is Failed
	condDone                 // a run's successful outcome: True is Current, and decides
	condRunning              // Running: InProgress for a kind that finishes
	condStarted              // Created, Scheduled, Submitted, Admitted: a run begun, not finished
	condBusy                 // work under way: True is InProgress
	condSuspended            // Suspended, Paused: see the paused policy
	condPositive             // normal-true, named for a state reached (HeadPodReady, RayClusterProvisioned): not True is InProgress
	condParticiple           // named by another past participle (Imported): Unknown is InProgress
	condValidity             // Valid, SpecValid, Validated, ValidationPassed: False is a spec to fix, Failed
	condBefell               // named for what befell the object (RolloutBlocked, Throttled): True with a terminal reason is Failed
)

// condClasses are the condition types of batch, ML and HPC operators (Created, Running,
// Restarting, Succeeded, Failed, Suspended and their synonyms), and the abnormal-true
// types that name a failure or a degraded state.
var condClasses = map[string]condClass{
	"failed": condFailure, "failure": condFailure, "error": condFailure, "errored": condFailure,
	"degraded": condFailure, "timedout": condFailure,
	// Terminal: the controller's word for a failure it will not retry (mikluko's NATS
	// operator: Terminal True, ExistsUnowned, "set spec.adoptionPolicy to ...").
	"terminal": condFailure,
	// Unhealthy says what befell the object, not that it failed for good (AppWrapper's
	// Unhealthy True, FoundFailedPods, while it resets and retries).
	"unhealthy": condBefell,

	"complete": condDone, "completed": condDone, "finished": condDone, "succeeded": condDone,
	"done": condDone, "accomplished": condDone, "successed": condDone,

	"running": condRunning,

	"created": condStarted, "scheduled": condStarted, "submitted": condStarted,
	"admitted": condStarted, "started": condStarted,

	"restarting": condBusy, "pending": condBusy, "queued": condBusy, "initializing": condBusy,
	"starting": condBusy, "suspending": condBusy, "pausing": condBusy, "creating": condBusy,
	"provisioning": condBusy, "progressing": condBusy, "updating": condBusy,
	"upgrading": condBusy, "deploying": condBusy, "scaling": condBusy, "waiting": condBusy,
	"resuming": condBusy, "stopping": condBusy, "synchronizing": condBusy, "syncing": condBusy,

	"suspended": condSuspended, "paused": condSuspended,
	// Asleep: a suspension by another name (Uffizzi's Sleep True, "put to sleep manually").
	"sleep": condSuspended, "sleeping": condSuspended, "asleep": condSuspended,
	"hibernated": condSuspended, "hibernating": condSuspended,

	// One word for a state reached that is not a participle: a check passing, a copy in sync
	// or up to date, a target compliant, reachable or online.
	"passing": condPositive, "insync": condPositive, "uptodate": condPositive,
	"compliant": condPositive, "reachable": condPositive, "online": condPositive,
	"built": condParticiple,
	// One word for work still to do: out of sync, an update needed.
	"outofsync": condBusy, "needsupdate": condBusy,
}

// classifyCondition sorts a condition type: a type in condClasses (any case), or one whose
// last word names a failure ("ReconcileError", "ReplicaFailure", "InstallFailed").
//
// The answers are kept in a wordCache: a cluster publishes a few dozen condition types, and
// the rules that read them run for every object of every kind a Watch holds.
func classifyCondition(t string) condClass {
	return classCache.get(t, classifyConditionType)
}

var (
	classCache wordCache[condClass]
	phaseCache wordCache[phaseKind]
)

// wordCache is a direct-mapped cache of a pure function's answers for short words,
// safe for concurrent use: a slot holds one word, replaced by the next that maps there.
type wordCache[T any] [256]atomic.Pointer[wordEntry[T]]

type wordEntry[T any] struct {
	w string
	v T
}

// maxCachedType bounds the words a wordCache keeps (its memory, ~20 KiB at most).
const maxCachedType = 64

// get returns compute(w), from the cache when w is there.
func (c *wordCache[T]) get(w string, compute func(string) T) T {
	slot := &c[cacheIndex(w)]
	if e := slot.Load(); e != nil && e.w == w {
		return e.v
	}
	v := compute(w)
	if len(w) <= maxCachedType {
		slot.Store(&wordEntry[T]{w: strings.Clone(w), v: v})
	}
	return v
}

// cacheIndex hashes t to a slot of classCache from its length and four of its bytes: a
// collision costs a classification, not a wrong answer, and hashing every byte would cost
// a good part of what the cache saves.
func cacheIndex(t string) uint8 {
	n := len(t)
	if n == 0 {
		return 0
	}
	h := uint32(n)*2654435761 ^ uint32(t[0])*16777619 ^ uint32(t[n-1])*2246822519 ^
		uint32(t[n/2])*3266489917 ^ uint32(t[n/3])*668265263
	return uint8(h ^ h>>8 ^ h>>16 ^ h>>24)
}

// classifyConditionType is classifyCondition without the cache.
func classifyConditionType(t string) condClass {
	var buf [40]byte
	w, ok := normalize(t, buf[:])
	if !ok {
		return condOther
	}
	if c, ok := condClasses[w]; ok {
		return c
	}
	// The last word (two, for "…InProgress") says what the type is about.
	var last, prev, first [16]byte
	var nl, np, nf int
	it := wordIter{s: t}
	for x, ok := it.next(); ok; x, ok = it.next() {
		prev, np = last, nl
		nl = copy(last[:], x)
		if nf == 0 {
			nf = copy(first[:], x)
		}
	}
	if np > 0 && string(first[:nf]) == "no" {
		// Named for the absence of something (ofen's NoImagePullFailed, True while no
		// node failed to pull): True is the normal state, however the rest reads.
		return condPositive
	}
	if terminalWords[string(last[:nl])] {
		return condFailure // RetryLimitExceeded, AccessDenied, SpecInvalid
	}
	if np > 0 && string(last[:nl]) == "available" && offeredWords[string(first[:nf])] {
		// Named for something on offer (lexfrei's minecraft-operator: UpdateAvailable False,
		// NoUpdate, "Server is up to date"): a notice, not a state the object reaches.
		return condOther
	}
	if np > 0 && changeWords[string(first[:nf])] && !saysOutcome(string(last[:nl])) {
		// Named for a change under way, the activity first (SpiceDB's RollingDeployment,
		// UpdatingConfig, ScalingReplicas): work under way, as Updating alone is.
		return condBusy
	}
	if np > 0 && nl > 4 && string(last[nl-3:nl]) == "ing" && condClasses[string(last[:nl])] == condBusy && !notActivityBefore[string(prev[:np])] {
		// Named for what is done to a part, the activity last (laf's
		// DeploymentAndServiceCreating, then DeploymentAndServiceStopping; ClusterUpgrading,
		// NodesDraining): work under way, as the activity alone is. Not AutoScaling, a
		// feature turned on, nor AvailableForProvisioning, what the object is ready for.
		return condBusy
	}
	if np > 0 && (string(first[:nf]) == "waiting" || string(first[:nf]) == "awaiting") {
		// Named for what the object waits on (vLLM production-stack's WaitingForPods,
		// NetObserv's WaitingFlowCollectorLegacy, False once the wait is over): True is a
		// wait under way, as Waiting alone is.
		return condBusy
	}
	if np > 0 && (string(first[:nf]) == "bad" || string(first[:nf]) == "invalid" || string(first[:nf]) == "illegal") {
		// Named for something wrong with what the object was given (the Hierarchical
		// Namespace Controller's BadConfiguration, InvalidSpec, IllegalParent): True is a
		// spec or setup a person must fix.
		return condFailure
	}
	if np > 0 && (string(first[:nf]) == "error" || string(first[:nf]) == "errors" || string(first[:nf]) == "failure") {
		switch string(last[:nl]) {
		case "occurred", "occured", "detected", "encountered", "reported", "found", "happened":
			// Named for an error that befell the object, the error first (Red Hat's
			// managed-gitops and Argo CD's ErrorOccurred; ErrorDetected): True is the
			// news, as …Error True is.
			return condFailure
		}
	}
	if np > 0 && string(first[:nf]) == "failed" {
		// Named as Kubernetes names its failure events, the failure first and then what
		// failed (DevWorkspace's FailedStart, FailedCreate, FailedUpdate). Not a first
		// word Failure, which names what a condition is about (FailureDomainsReady).
		return condFailure
	}
	if np > 0 && (string(first[:nf]) == "reconcile" || string(first[:nf]) == "reconciliation") {
		switch string(last[:nl]) {
		case "succeeded", "success", "successful", "complete", "completed":
			// The controller's reconcile of the latest spec succeeded (kapp-controller's
			// ReconcileSucceeded): a state reached, as Ready is, not a run's outcome.
			return condPositive
		}
	}
	if string(first[:nf]) == "validation" && np > 0 {
		switch string(last[:nl]) {
		case "passed", "succeeded", "success", "ok":
			return condValidity // ValidationPassed, ValidationSucceeded
		}
	}
	switch string(last[:nl]) {
	case "valid", "validated":
		return condValidity // Valid, SpecValid, ConfigValidated
	case "failed", "failure", "error", "errors", "degraded", "conflict", "conflicts":
		return condFailure // ReplicaFailure, ReconcileError, PoolConflict
	case "stopped":
		return condDone // a run stopped before its end (Katib's EarlyStopped): it has ended
	case "progress":
		if string(prev[:np]) == "in" {
			return condBusy // UpgradeInProgress, RollbackInProgress
		}
	case "progressing":
		return condBusy // CoreNodesProgressing, ReplicasProgressing
	case "pending":
		if np > 0 {
			return condBusy // WorkloadRollPending
		}
	case "warning", "missing", "running":
		// Not work under way: a warning or a loss is not progress; the others are above.
	case "ready", "available", "provisioned", "healthy", "synced", "reconciled", "initialized",
		"established", "bound", "configured", "deployed", "installed", "applied", "accepted",
		"programmed", "provided", "mounted", "attached", "registered", "enforced", "connected":
		return condPositive
	default:
		// A type named by a past participle (Imported, AllInjected, Realized) is named for a
		// state reached, unless the participle names something that befalls an object
		// (abnormalParticiples: Evicted, Throttled, Expired). Only Unknown is read of it:
		// False is as often the other of a pair of states (Chaos Mesh's AllInjected and
		// AllRecovered) as a state not reached yet.
		if w := string(last[:nl]); len(w) > 4 && hasSuffix(w, "ed") {
			if w == "paused" || w == "suspended" {
				return condSuspended // ScanningPaused, ReconciliationPaused, SyncSuspended
			}
			if abnormalParticiples[w] {
				return condBefell
			}
			if needParticiples[w] {
				// OffloadingRequired, UpgradeNeeded: a need, not a state reached; False is
				// no need, True is read by what else the object says.
				return condOther
			}
			return condParticiple
		}
		// A type that is one word naming an activity (Synchronizing, Rebalancing,
		// Draining): True is work under way. Not a longer name ending in one
		// (AvailableForProvisioning), which says what the object is ready for.
		if np == 0 && nl > 4 && string(last[nl-3:nl]) == "ing" && !steadyActivities[string(last[:nl])] {
			return condBusy
		}
		// A state-reached word misspelt by one letter or two swapped (cluster-proxy's
		// ServiceResolverAvaliable, a Reconcilled, an Availible): read as the word meant.
		if misspeltPositive(string(last[:nl])) != "" {
			return condPositive
		}
	}
	return condOther
}

// positiveWords are the state-reached words of condition types long enough that one letter
// off, or two letters swapped, is a misspelling of them and not another word.
var positiveWords = [...]string{"available", "provisioned", "healthy", "reconciled", "initialized",
	"established", "configured", "deployed", "installed", "registered", "connected", "synchronized"}

// misspeltPositive returns the word of positiveWords that w misspells (an edit of one
// letter, or two adjacent letters swapped), or "".
func misspeltPositive(w string) string {
	if len(w) < 7 {
		return ""
	}
	for _, p := range positiveWords {
		if w != p && oneEditApart(w, p) {
			return p
		}
	}
	return ""
}

// oneEditApart reports whether a and b differ by one inserted, deleted or changed letter,
// or by two adjacent letters swapped.
func oneEditApart(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		if i == len(a) {
			return false
		}
		if a[i+1:] == b[i+1:] {
			return true // one changed
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // two swapped
	}
	return a[i:] == b[i+1:] // one inserted into a
}

// notActivityBefore are words that, before an activity at the end of a condition type, make
// it not the activity under way: a feature (AutoScaling) or what the object is ready for
// (AvailableForProvisioning).
var notActivityBefore = map[string]bool{"auto": true, "for": true, "to": true, "of": true, "before": true, "after": true}

// saysNotFound reports a value with the words "not found" (or NotFound).
func saysNotFound(s string) bool {
	it := wordIter{s: s}
	not := false
	for w, ok := it.next(); ok; w, ok = it.next() {
		if not && string(w) == "found" || string(w) == "notfound" {
			return true
		}
		not = string(w) == "not"
	}
	return false
}

// saysOutcome reports a last word of a condition type that says how the activity its first
// word names turned out, or whether it may run (ScalingLimited, ScalingActive,
// UpdateFailed, UpgradeAllowed): such a type is read by that word, not as work under way.
func saysOutcome(last string) bool {
	if abnormalParticiples[last] || terminalWords[last] || condClasses[last] != condOther {
		return true
	}
	switch last {
	case "active", "allowed", "enabled", "disabled", "ready", "available", "possible", "supported":
		return true
	}
	return false
}

// namesErrorType reports a condition type named for an error or a failure itself (Error,
// Failed, ReconcileError, InstallFailure): its last word is error, errors, errored, failed or
// failure. Unlike Degraded or Conflict, such a type is only ever set to report an error, so
// a message on it is the error, whatever its status.
func namesErrorType(t string) bool {
	var last [16]byte
	n := 0
	it := wordIter{s: t}
	for w, ok := it.next(); ok; w, ok = it.next() {
		n = copy(last[:], w)
	}
	switch string(last[:n]) {
	case "error", "errors", "errored", "failed", "failure":
		return true
	}
	return false
}

// clientError reports a message that quotes an API's client error: an HTTP status 400, 401,
// 403, 404, 410, 412, 413 or 422 written as APIs and their clients print it ("[400
// ServiceCreate]: ...", "status code 403", "HTTP 422", "404 Not Found"). The request as the
// spec makes it was refused, so sending it again does not help. Not 408, 409, 425 or 429
// (a timeout, a conflict, too early or too many requests), which clear by themselves.
func clientError(msg string) bool {
	for i := 0; i+3 <= len(msg); i++ {
		if msg[i] != '4' || i+3 < len(msg) && isDigit(msg[i+3]) || i > 0 && isDigit(msg[i-1]) {
			continue
		}
		switch msg[i : i+3] {
		case "400", "401", "403", "404", "410", "412", "413", "422":
		default:
			continue
		}
		before, after := strings.ToLower(msg[:i]), strings.ToLower(msg[i+3:])
		switch {
		case strings.HasSuffix(before, "["), strings.HasSuffix(before, "status code "),
			strings.HasSuffix(before, "status code: "), strings.HasSuffix(before, "http "),
			strings.HasSuffix(before, "statuscode: "), strings.HasSuffix(before, "error code "),
			// "unknown status: 403" (mailu-operator quoting its API client), "http status 401";
			// not "exit status 4…", a process's.
			strings.HasSuffix(before, "status: ") && !strings.HasSuffix(before, "exit status: "),
			strings.HasSuffix(before, "status ") && !strings.HasSuffix(before, "exit status "),
			strings.HasSuffix(before, "code: ") && (i == 6 || !isLetter(before[len(before)-7])):
			// "code: 403 reason: ..." (Pulsar's admin client) is the HTTP status; "exit code: 4…"
			// or "errcode: …" are not, so "code" must be a word of its own.
			return true
		}
		for _, text := range [...]string{" bad request", " unauthorized", " forbidden", " not found", " gone",
			" precondition failed", " request entity too large", " unprocessable entity"} {
			if strings.HasPrefix(after, text) {
				return true
			}
		}
	}
	return false
}

// changeWords name a change to what already runs: an update, an upgrade, a scaling, a
// rebuild or a rolling restart. A state with one of them is not finished, though the old
// version still serves and a Ready condition set when it first did still says True.
// Provisioning, Creating or Pending are not among them: beside Ready True they say less
// than it does.
var changeWords = map[string]bool{
	"updating": true, "upgrading": true, "downgrading": true, "scaling": true,
	"rebuilding": true, "rolling": true, "rollingupdate": true, "restarting": true,
	"migrating": true, "resizing": true, "expanding": true, "rebalancing": true,
	"reconfiguring": true, "recovering": true,
}

// changeUnderWay reports whether a state value names a change under way (changeWords):
// "Updating", "ROLLING_UPDATE", "ScalingUp".
func changeUnderWay(value string) bool {
	var buf [40]byte
	if w, ok := normalize(value, buf[:]); ok && changeWords[w] {
		return true
	}
	it := wordIter{s: value}
	for w, ok := it.next(); ok; w, ok = it.next() {
		if changeWords[string(w)] {
			return true
		}
	}
	return false
}

// offeredWords, first in a type ending Available, name something on offer rather than the
// object's own availability (UpdateAvailable, UpgradeAvailable, NewVersionAvailable).
var offeredWords = map[string]bool{"update": true, "updates": true, "upgrade": true, "upgrades": true,
	"new": true, "newer": true, "version": true, "release": true}

// needParticiples name what an object needs or is asked, not a state it reached
// (Liqo's OffloadingRequired False: no cluster needs the namespace).
var needParticiples = map[string]bool{"required": true, "needed": true, "requested": true, "wanted": true, "desired": true}

// abnormalParticiples are past participles that, as condition types, are abnormal-true: True
// is the news and False is the normal state, so a False one is not a state still to reach.
var abnormalParticiples = map[string]bool{
	"evicted": true, "preempted": true, "terminated": true, "deprecated": true,
	"cordoned": true, "drained": true, "throttled": true, "disrupted": true, "drifted": true,
	"expired": true, "blocked": true, "locked": true, "deleted": true, "orphaned": true,
	"skipped": true, "ignored": true, "interrupted": true, "outdated": true,
	"overloaded": true, "disabled": true, "restarted": true, "superseded": true,
	"abandoned": true, "cancelled": true, "canceled": true, "quarantined": true,
	"hibernated": true, "invalidated": true, "truncated": true, "evacuated": true,
	"tainted": true, "conflicted": true, "exhausted": true, "exceeded": true, "denied": true,
	"rejected": true, "failed": true, "degraded": true, "paused": true, "suspended": true,
	"stopped": true, "killed": true, "crashed": true, "aborted": true, "errored": true,
	"corrupted": true, "missed": true, "delayed": true, "stalled": true, "requested": true,
	"modified": true, "changed": true, "unhealthy": true, "lost": true,
	"detached": true, "isolated": true, "partitioned": true, "fenced": true,
	"violated": true, "disconnected": true, "saturated": true, "halted": true,
	"unregistered": true, "limited": true,
	// A threshold broken (grove's MinAvailableBreached, an SLO breached): news when True.
	"breached": true,
}

// personWords name who a wait is for when only a person can end it.
var personWords = map[string]bool{"user": true, "manual": true, "human": true, "person": true, "admin": true, "administrator": true}

// waitsForPerson reports a state value that says it waits for a person ("WaitingForUser",
// "Waiting for user action", "AwaitingManualApproval"): a wait word, then a word of
// personWords. Not an approval alone (Strimzi's KafkaRebalance awaits one that auto-approval
// may give), nor "operator", the software's name as often as a person's.
func waitsForPerson(value string) bool {
	it := wordIter{s: value}
	waiting := false
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch {
		case string(w) == "waiting" || string(w) == "awaiting" || string(w) == "wait" || string(w) == "waits":
			waiting = true
		case waiting && personWords[string(w)]:
			return true
		}
	}
	return false
}

// underWay reports the rest of a state after Under naming an activity as a noun: one ending
// -tion, -ment or -ance (reconciliation, deployment, maintenance), or review, way, repair,
// construction or test.
func underWay(rest string) bool {
	switch rest {
	case "review", "way", "repair", "test", "testing":
		return true
	}
	return hasSuffix(rest, "tion") || hasSuffix(rest, "ment") || hasSuffix(rest, "ance")
}
