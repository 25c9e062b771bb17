// Command kates applies Kubernetes manifests and tells when — or whether — they are reconciled,
// and if not, why. Its waits are driven by watches (package kates' Client.Wait), not polling, and
// name the blocker: "deployment.apps/web InProgress: Available: 1/3; pod web-7c9-x2:
// Unschedulable: 0/2 nodes are available".
//
// # Commands
//
//	kates apply -f FILE|DIR|- | -k DIR [--wait] [--timeout 5m] [--field-manager kates] [--force-conflicts] [--validate=false]
//	            [--diff] [--prune --applyset [RESOURCE[.GROUP]/]NAME] [--dry-run=server] [-o name|jsonpath=TEMPLATE]
//	kates diff -f FILE|DIR|- | -k DIR
//	kates validate -f FILE|DIR|- | -k DIR
//	kates wait  -f FILE|DIR|- | TYPE/NAME... | TYPE [NAME...] [--for current|deleted|condition=TYPE[=STATUS]] [--timeout 5m] [--no-fail-fast]
//	kates status -f FILE|DIR|- | TYPE[/NAME]... [-o table|wide|json|yaml]
//	kates watch TYPE[/NAME]... | -f FILE|DIR|- [-o json]
//
// apply applies every object with server-side apply: CustomResourceDefinitions first, then
// Namespaces, then the rest in file order, waiting for each CRD's kind to be served before
// applying its custom resources. Before it applies anything, it checks every object against the
// cluster's schemas as validate does: one invalid object and nothing is applied (exit 2);
// --validate=false leaves the judging to the server, object by object. With --wait it then waits
// as wait does.
//
// apply --wait honours each manifest's annotation kates.dev/wait: "false" does not wait for the
// object, "exists" waits only until it exists, "true" (the default) until it is Current.
// apply --prune --applyset tracks the objects as a KEP-3659 ApplySet (package kates' ApplySet)
// and deletes the members the manifests no longer hold; kubectl apply --prune --applyset can
// take the same set over (with --applyset-tooling kubectl/VERSION, since each tool refuses
// another's set). -o jsonpath=TEMPLATE (or jsonpath-file=FILE) on apply, status, watch and wait
// prints through client-go's jsonpath, as kubectl does; status, watch and wait apply it to each
// object's status, whose fields are those of status -o json. "kates completion bash|zsh|fish"
// writes a script completing kinds, names and namespaces from the cluster.
//
// validate checks every object against the cluster's schemas (package kates' Validator) without
// applying anything, and lists every violation with its file, document and field path.
//
// apply, wait, status and watch take --status-rules FILE (repeatable): CEL status rules for
// custom resources whose status the standard conditions do not tell (see package kstatus,
// RuleSet, and the README), in kates' format or as Flux's healthCheckExprs; or Argo CD
// health checks in Lua (package kstatus/luahealth), as an argocd-cm ConfigMap file or a
// directory laid out as Argo CD's GROUP/KIND/health.lua. They are compiled
// before anything is done, and apply checks them against the schemas of the CRDs it applies;
// a rule that cannot work is exit code 2. --no-status-library turns off the built-in rules
// for Argo, Flux, cert-manager and the other projects the README lists. status -o wide, and
// the "rule" field of -o json, name the rule that judged each object.
//
// TYPE is any kind or resource kubectl accepts ("deploy", "deployments.apps", "Deployment", a
// CRD's short name), a comma-separated list of them ("deploy,svc"), or a category ("all", as in
// kubectl get all). A TYPE without names selects every object of that kind in the namespace
// (-n, or every namespace with -A, which also adds a NAMESPACE column) that matches -l.
//
// Every command takes kubectl's connection flags (--kubeconfig, --context, -n/--namespace,
// --server, --token, ...); objects that name no namespace go to -n, else to the kubeconfig
// context's namespace.
//
// # Output
//
// On a terminal, waits and watch draw a live table (kind/name, status, age, message) redrawn in
// place under a progress count ("4/6 Current"). Otherwise — in CI logs, through a pipe — they print
// one line per change of an object's status or message, each with the time since the start. A
// summary line ends every wait. watch -o json writes each change as one JSON object on a line
// of its own, in the schema of status -o json's elements; an object that goes is written once
// more as NotFound, reason Gone.
//
// # Exit codes
//
//	0  every object reached the status waited for (status: every object is Current; watch: ^C)
//	1  an object failed, the wait timed out, or the cluster refused a request
//	2  bad usage or input: an unknown flag or kind (with close matches), an unreadable file,
//	   invalid YAML, an object invalid by the cluster's schemas (the error names the file and
//	   the document)
package main
