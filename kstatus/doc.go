// Package kstatus answers, for any Kubernetes object, whether its latest change has been
// fully reconciled, and if not, why. It reads only the object: it never talks to a
// cluster, so the object must be whole, status included, as a Get or a watch returns it.
//
//	res, err := kstatus.Compute(u)
//	if err != nil {
//		// A field kstatus reads is malformed; res is Unknown and says which.
//	}
//	switch res.Status {
//	case kstatus.CurrentStatus:
//		// done
//	case kstatus.FailedStatus:
//		return fmt.Errorf("%s %s: %s", u.GetKind(), u.GetName(), res.Message)
//	default:
//		// wait for the next version of u
//	}
//
// # Statuses
//
// Compute returns InProgress, Failed, Current, Terminating or Unknown. NotFound is for
// callers that look objects up: it is what a deleted object has. Failed is not final:
// a controller that retries may still bring the object to Current, but nothing in the
// object suggests waiting will, so a caller waiting for Current should stop and report.
//
// # Rules
//
// Compute applies these rules in order; the first that decides wins.
//
//  1. metadata.deletionTimestamp is set: Terminating.
//  2. status.observedGeneration is present and differs from metadata.generation (on a
//     kind no rule names, an observedGeneration of 0 beside other status fields is no
//     generation, as the API server starts them at 1: an operator that serializes a field
//     it never sets, as Microcks' does; it is not read):
//     InProgress. The controller has not seen the latest spec, so nothing else in status
//     describes it. Except, on a kind no rule names, a spec the controller rejected before
//     recording it as observed (it validates first, writes the error and stops): when
//     metadata.managedFields says when the spec last changed (the latest time of an entry
//     of the main resource that owns spec fields), the conditions whose lastTransitionTime
//     is not before that (and whose own observedGeneration, if any, is the latest) are
//     judged alone by rules 3 to 6, and a Failed from them is Failed. Watch strips
//     managedFields unless asked to keep them; Wait keeps what this needs. Without them,
//     the conditions whose own observedGeneration (metav1.Condition's: the generation it
//     was set from) is metadata.generation are judged so: the controller stamped them
//     from this spec (cluster-api-operator's PreflightCheckPassed False on a downgrade,
//     with status.observedGeneration left behind). And a pause
//     the spec asks for that status repeats (spec.managementState Unmanaged with
//     status.managementState Unmanaged; spec.paused with status.paused true), or that a
//     condition stamped with metadata.generation reports with a reason that says paused
//     (ia-eknorr's stoker-operator: Ready False, Paused, for the generation that set
//     spec.paused), is Current: the controller wrote that it stands aside, and so never
//     observes that generation (PAUSED.md). Otherwise the message adds what the
//     conditions last said went wrong (a condition True named for a failure, else Ready
//     False, with its message; without one, an error field of status: failureMessage,
//     errorMessage, error): it may be about the generation before, so it does not make
//     the verdict Failed, but a person waiting learns what the controller last objected
//     to.
//  3. The standard conditions: Stalled True is Failed, Reconciling True is InProgress,
//     with the condition's reason and message. Stalled wins if both are True.
//  4. The kind's own rule, for built-in kinds whose controllers publish counts or
//     conditions of their own, and for kinds with nothing to wait for that are always
//     Current; Kinds below lists them. Each rule's comment says what it checks and why.
//     A kind with a rule never reaches rule 5.
//  5. The Ready condition: True is Current, unless its message says in a sentence of its
//     own that it waits (on a kind no rule names: Kuberik's Rollout, "Release deployed
//     successfully. Waiting for health checks to become healthy before starting bake";
//     not a wait for the next run, "Awaiting next reconciliation"), or a condition True for the latest
//     generation says an upgrade or rollback is under way (a type ending in InProgress:
//     UpgradeInProgress), or, on a kind no rule names, a condition of work under way (6a)
//     turned True after Ready did (valkey-operator's WorkloadRollPending, HyperShift's
//     UpdatingVersion: work begun since the object was ready; of several, the one turned
//     True last, and not once the condition named for its end, -ing turned -ed, turned True
//     after it: laf's DeploymentAndServiceStopping, then …Stopped), or a state of status
//     on its way to the state a spec field named state or …State asks for, the same stem
//     with -ing (laf's Application: status.state Stopping, spec.state Stopped), or a state of status names a change
//     to what already runs (a word Updating, Upgrading, Downgrading, Scaling, Rebuilding,
//     Rolling, RollingUpdate, Restarting, Migrating, Resizing, Expanding, Rebalancing,
//     Reconfiguring or Recovering: GreptimeDB's clusterPhase Updating) or the replica
//     counts of a part one object down are short (datanode.readyReplicas 2 of 3), or a
//     field of status named for readiness holds a fraction short (ShardingSphere's
//     ready "1/3" beside a Ready True set once some pods are), or status.ready, the
//     object's own flag, is false (Prefect's work pool, whose Ready is set on every
//     pass), or a boolean of status named for work in progress (…InProgress: Open Edge
//     Platform's deployInProgress) is true, or the replicas of the kind's scale subresource are short of those asked
//     (its statusReplicasPath below its specReplicasPath, as KindInfoFromCRD reads them:
//     Kroxylicious' KafkaProxy, status.replicas 1 of 3 after a scale-up): many
//     operators set Ready once and do not reset it while they change what serves. Not the
//     object's own counts, nor Pending or Creating, which say less than Ready does. But
//     Ready's own reason naming a state of something on its way (its first word Pending,
//     Provisioning, Creating, Initializing, Starting, Progressing, Installing, Deploying,
//     Scheduling, Updating, Upgrading, Waiting or Queued: kubebb's Repository, Ready True,
//     Creating, "prepare to launch watcher"; KeiaiLab's Valkey, Ready True, Initializing)
//     is the controller saying the work has only begun: InProgress with that reason,
//     unless a state of status says the object got there since (Kubernaut's Verifying
//     left beside overallPhase Completed).
//     Ready True is also outranked, on a kind no rule names, by a condition True named for
//     an error or a limit reached (Failed, ReconcileError, InstallFailure,
//     RetryLimitExceeded) whose reason is not transient, which is Failed: many controllers
//     set Ready for their own reconcile whatever became of the work (korifi's CFTask:
//     Ready True, Failed True with the task's exit code). And by a run not finished: on a
//     kind that finishes (6f says how that is known; a spec field to cancel the run,
//     spec.cancel or spec.canceled, is one more sign), a Running or Started condition True
//     or a running state with no outcome (no Succeeded, Complete or Finished condition
//     True, no terminal success in a state, no completion time), or, where the kind's
//     definition says it finishes, no outcome at all, is InProgress (reason NotFinished):
//     Forklift's and MTC's migrations set Ready True when the migration may run, and
//     report its end by Succeeded. And by a condition named for the readiness of the
//     object's own kind (its kind or the kind's last word, then Ready or Available:
//     Elemental's SeedImageReady) not True: Ready there reports the resources the
//     controller created, the own condition the object's work. InProgress with its reason,
//     Failed as in 6a, and on a kind that finishes Failed when its reason names a failure
//     (SeedImageBuildFailure: the run's). The own condition True is the object's state
//     reached, and no run is waited for beyond it. So is the object's own outcome Unknown
//     (the kind or its last word, then Succeeded, Completed, Complete or Finished: Dana's
//     ImageBuild, BuildSucceeded Unknown while the build runs): InProgress. And an
//     outcome not reached because it failed, as its reason says (BuildSucceeded False,
//     BuildRunFailed), is Failed beside a Ready True. And by a condition named for a state
//     reached (Healthy, Synced, a past participle: ClusterSizeAligned) or for the spec's
//     validity (minecraft-operator's CronScheduleValid) False for the
//     latest generation that turned False after Ready turned True: the object has lost
//     that state since, or not reached it yet, and Ready's True is the older news
//     (ClickHouse Inc.'s KeeperCluster: Healthy False, ReplicasNotReady, while a replica
//     joins), or Unknown with a reason that says it waits (Rancher's Cluster: Updated
//     Unknown, Waiting, during an upgrade; a condition with no lastTransitionTime is
//     timed by its lastUpdateTime, as wrangler writes them). InProgress, or Failed as in
//     6a. Not when the object is stopped or paused
//     (status.phase or state, or the condition's reason, says so): what a stop leaves
//     unavailable is what was asked for.
//     False or Unknown is InProgress, with its reason and message,
//     unless it says a person must act (Failed: severity Error, or a terminal reason or
//     message, as in 6a), or the rest of the object (rule 6) says more: a failure, a run
//     that finished, a suspension the spec asks for, reached, or a state the spec asks for
//     by name, reached (6c), when Ready's reason and message say nothing more (neither a
//     failure nor work under way: a profile disabled as asked, Ready False Unavailable).
//     False with the word of a failure alone for its reason (Failed, Failure), a message
//     that waits for nothing (no transient word, no unreachable server) and no other
//     condition not True behind it is Failed: the attempt failed, and nothing says it is
//     retried (Skyscanner's kms-issuer: KMSIssuer and KMSKey, Ready False, Failed, "Not a
//     valid key: "). With another condition not True whose reason is more than that word,
//     Ready is their summary and stays InProgress (OpenShift's zero-trust workload
//     identity manager writes Ready False, Failed, for a StatefulSet not ready yet).
//     A reason that says the object is paused or suspended (KubeSphere DevOps'
//     PipelineRun, Ready Unknown, PAUSED, at an input step), on a kind no rule names
//     whose spec asks for no pause, is Failed (reason Paused), as a state Paused the
//     spec did not ask for is (PAUSED.md). So, on a kind no rule names, is a state of
//     status that says it waits for a person (a wait word, then User, Manual, Human,
//     Person, Admin or Administrator: howl-cloud's RedisCluster, phase WaitingForUser,
//     its supervised update held for an approval, beside Ready True), with or without a
//     Ready condition: only a person ends the wait. Not an approval alone (auto-approval
//     may give it) nor "operator".
//  6. Otherwise the object is judged from what it publishes (inference, below).
//
// Rules 3 (for Stalled True), 5 and 6 read a condition's own observedGeneration too: a
// condition written for a generation older than metadata.generation describes a spec the
// controller has since been given, so it is InProgress (reason
// LatestGenerationNotObserved) whatever it says; other stale conditions inference reads
// are ignored. A condition's observedGeneration of 0 is no generation (metadata.generation
// starts at 1) but a field a controller's own condition type writes for "not set" (rukpak's
// conditions): it is read as absent.
//
// # Inference: kinds no rule is written for
//
// Most clusters run operators no library knows, so rule 6 reads the conventions operators
// share rather than any kind's own words. Steps a to d each may give a verdict; the worst
// of them wins (Failed, then InProgress, then Current), so a phase Failed is not hidden by
// a condition True. Steps e and f then read the verdict against the spec and the kind; g
// and h apply only when nothing gave a verdict. Each vocabulary below is matched without
// regard to case or separators (RUNNING, Running and STATE_RUNNING are one word), and an
// unclear word does not decide: inference errs towards "not understood" over a guess.
//
//	6a. Conditions at the top of status. A condition other than Ready False because
//	    nobody asked for what it reports (a reason NotRequested, NotConfigured or
//	    NotEnabled: Intel's sriov-fec-operator Configured False, NotRequested; Sealos'
//	    Devbox StartupConfigMapSynced False, NotConfigured) is the resting state of a
//	    feature not used, and is left out. A condition of a state not reached beside
//	    status.ready true, the object's own summary (kaniop's KanidmGroup:
//	    PosixInitialized False for attributes the spec does not ask for), is weighed in
//	    that summary: Current, unless a failure, work under way, a state or a count says
//	    otherwise.
//	    - The normal-true Succeeded, Available, Accepted, Programmed and ResolvedRefs (the
//	      last three are the Gateway API's), and any type named for a state reached: a
//	      last word of Ready, Available, Provisioned, Healthy, Synced, Reconciled,
//	      Initialized, Established, Bound, Configured, Deployed, Installed, Applied,
//	      Accepted, Programmed, Provided, Mounted, Attached, Registered, Enforced or Connected,
//	      or one of the longer of these, or Synchronized, misspelt by one letter or two
//	      swapped (cluster-proxy's ServiceResolverAvaliable)
//	      (HeadPodReady, SecretSynced, RecommendationProvided; Kuadrant's Enforced
//	      beside Accepted; not Available after Update, Upgrade, New, Version or Release,
//	      which names something on offer: minecraft-operator's UpdateAvailable False is
//	      no update waiting), the one-word Passing, InSync, UpToDate, Compliant, Reachable
//	      and Online (Built is a participle, below), or Reconcile or Reconciliation followed by Succeeded, Success,
//	      Successful, Complete or Completed (kapp-controller's ReconcileSucceeded, which
//	      also says the object is reconciled for as long as it exists, not a run: 6f),
//	      and, when
//	      Unknown only, any other type whose last word is a past participle that does not
//	      befall an object (Imported, but not Evicted or Throttled) nor names a need
//	      (Required, Needed, Requested, Wanted, Desired: Liqo's OffloadingRequired False
//	      is no need, not a state not reached). True is
//	      Current; False or Unknown is InProgress with its reason and message, but Failed
//	      when it is False with severity Error (Cluster API v1beta1's "given up", which
//	      other providers copied; Warning and Info keep reconciling; and a part's severity
//	      Error yields to a Ready False of milder severity, which the convention makes
//	      the summary of the others: the controller judged the error one it retries),
//	      or when its reason
//	      names an error a person must fix (see Reasons below). Succeeded True is a
//	      finished run and decides alone; Succeeded False is Failed, unless its reason
//	      names no failure and a condition of work under way is True (OpenShift's
//	      MachineOSBuild sets Succeeded False, Ready, "Build Ready", at the start, beside
//	      Building True): the work's condition, InProgress. A type named for a
//	      state reached, True, whose reason says a change is under way in so many words
//	      (RolloutInProgress, UPDATE_IN_PROGRESS) is InProgress: the state holds while the
//	      latest spec rolls out.
//	    - A type whose last word is a past participle that befalls an object (Blocked,
//	      Throttled, Locked, Evicted, Drifted, Violated, Disconnected, Limited, Breached:
//	      RolloutBlocked, SyncThrottled, grove's MinAvailableBreached), or Unhealthy (AppWrapper's, True while it resets
//	      failed pods and retries), True says what
//	      stops it, not whether that clears: Failed when its reason names an error a person
//	      must fix (Quay's RolloutBlocked, ConfigInvalid), else left to the rest of
//	      status, and InProgress where nothing else decides (6h: Shipper's Blocked,
//	      RolloutsBlocked, alone).
//	    - A run's conditions, as batch, ML and HPC operators publish them: an outcome
//	      (Complete, Completed, Finished, Succeeded, Done, or a type ending in Stopped, as
//	      EarlyStopped) True is Current and decides alone, unless its reason names a
//	      failure, and False with a reason that names an error a person must fix is a run
//	      that failed (Complete False, Fatal), and so is one whose reason names a failure,
//	      not transient, its message not saying it waits (Substratus' Complete False,
//	      JobFailed); work under way (Restarting, Pending, Queued, Initializing, Starting,
//	      Creating, Provisioning, Progressing, Updating, Upgrading, Scaling, Waiting,
//	      Suspending, Synchronizing, OutOfSync, NeedsUpdate, a type whose first word names a
//	      change under way and whose last says nothing of its outcome (SpiceDB's
//	      RollingDeployment, UpdatingConfig; not ScalingLimited or ScalingActive), a type
//	      named for what the object waits on (WaitingForPods, AwaitingApproval; False once
//	      the wait is over, as NetObserv's WaitingMonitoring), a type ending in InProgress
//	      or Progressing, a type of two words or more ending in Pending (valkey-operator's
//	      WorkloadRollPending), a type of two words or more ending in one of the activities
//	      above (laf's DeploymentAndServiceCreating, …Stopping; not after Auto, For, To, Of,
//	      Before or After: AutoScaling, AvailableForProvisioning), or any one-word type ending in -ing but a steady one: Sleeping,
//	      Idling, Listening, Monitoring, Working) True is InProgress, unless its reason
//	      says the work is done (Progressing True, NewReplicaSetAvailable; not a negated
//	      one, NoReadyPods or NotReady), and False with a reason that names a failure or
//	      an error a person must fix, not transient, its message not saying it waits, is
//	      work that ended and failed (NVIDIA's NicDevice: FirmwareUpdateInProgress False,
//	      FirmwareUpdateFailed; medik8s' FencingInProgress False, RemediationFailed;
//	      VolSync's Synchronizing False, Error): Failed; Running True is
//	      judged as the phase Running is (6c); Created, Scheduled, Submitted, Admitted or
//	      Started True is a run begun (6f). A type that names the outcome of the object
//	      itself (the kind or its last word, then Succeeded, Completed, Complete or
//	      Finished: UpgradeCompleted on lifecycle-agent's ImageBasedUpgrade, Pulp's
//	      BackupComplete on a PulpBackup, Kaito's
//	      WorkspaceSucceeded) is read as an outcome; another's (PrepCompleted) is not.
//	      A run's start True beside its end False, of one stem (a type ending in
//	      Submitted, Started, Running, Triggered, Initiated or Launched, and the same stem
//	      ending in Completed, Complete, Finished, Succeeded, Successful or Done), is a run
//	      begun and not ended: InProgress, reason the start's type, over a Current read
//	      elsewhere, on any kind (Harvester seeder's Inventory: bmcJobSubmitted True,
//	      bmcJobCompleted False, state inventoryNodeReady; Kogito's KogitoBuild: Running
//	      True, Successful False). Not an end False whose reason names a failure.
//	    - A failure: a type Failed, Failure, Error, Errored, Degraded, TimedOut or Terminal (a
//	      failure the controller will not retry: mikluko's NATS operator), or one whose last
//	      word is Failed, Failure, Error, Errors, Degraded or a terminal word of Reasons
//	      below (ReplicaFailure, ReconcileError, RetryLimitExceeded), or whose first word
//	      is Failed, as Kubernetes names its failure events (FailedStart, FailedCreate;
//	      or Bad, Invalid or Illegal, named for what the object was given: the
//	      Hierarchical Namespace Controller's BadConfiguration; or Error, Errors or
//	      Failure first and then that it befell the object, Occurred, Detected,
//	      Encountered, Reported, Found or Happened: Red Hat's managed-gitops and Argo
//	      CD's ErrorOccurred; otherwise
//	      not Failure, which names a subject: FailureDomainsReady; nor a type whose first
//	      word is No, named for an absence and True when all is well: ofen's
//	      NoImagePullFailed), True is Failed, with
//	      its reason and message; but InProgress when its reason is transient, its
//	      message starts with a transient word ("Waiting for ..."), or, the reason unclear,
//	      the message says the work is in progress (Dash0's Degraded True, "reconciliation
//	      is in progress", while a reconcile runs) or, on a type other than Failed or
//	      Failure (a run's outcome), quotes a server's error a retry clears (HTTP 500,
//	      502, 503, 504 by name or after "status code" or "Error ": Perses' Degraded True, "internal
//	      server error StatusCode: 500"; or HTTP 429, too many requests, by code or
//	      name: gcp-project-operator's Error True quoting googleapi's "Error 429: …,
//	      rateLimitExceeded"), unless the type itself
//	      names a limit reached or a refusal. A failure outranks an outcome.
//	    - A state or an outcome not reached because it failed: a condition named for a
//	      state reached, an outcome or another past participle, False with the reason
//	      Failed or Failure alone (lifecycle-agent's PrepCompleted False, Failed; KubeDB's
//	      VerticalScaling False, Failed), is Failed, unless its message says the failure
//	      is retried (a transient word first, "Retrying: …").
//	    - An error reported with status Unknown: a type named for the error itself (its
//	      last word Error, Errors, Errored, Failed or Failure; not Degraded or Conflict)
//	      Unknown with a message (Aiven's Error condition) is never Current: Failed when the
//	      message quotes an API's client error (HTTP 400, 401, 403, 404, 410, 412, 413 or
//	      422, written "[400 ...]", "status code 403", "code: 403", "HTTP 422", "status:
//	      403" (mailu-operator's "unknown status: 403"; not "exit status …") or "404 Not
//	      Found"; not
//	      408, 409, 425 or 429, which clear by themselves) or the reason or message is
//	      terminal (Reasons below), else InProgress.
//	    - A condition of work under way True whose lastTransitionTime is before that of a
//	      condition named for a state reached True (llmaz's Progressing left True under an
//	      Available True that came after it) is left behind, and not read.
//	    - Any other type True whose message says, in a sentence or a clause of its own,
//	      that it waits (Naiserator's SynchronizationState True: "Deployment has been
//	      processed; waiting for completion..."; not a wait for the next run): InProgress.
//	    - Any other type, and Running, Created, Scheduled, Submitted, Admitted or Started,
//	      False or Unknown with a reason: Failed (False only) when the reason or message
//	      names an error a person must fix (as Ready's, including a message quoting an API's client error), and
//	      InProgress when the reason says it waits (a word Waiting, Wait, Awaiting, Pending,
//	      Retrying, InProgress, Yet, Dependency or NotReady, or Not and Ready: Running False,
//	      WaitingForBuild), names a failure being retried (AttemptToRedeployFailed), or
//	      says something it needs was not found (tor-operator's OnionKey False,
//	      HostnameNotFound), or, for Created and the other types of a run begun, when its
//	      message says it waits (zhulik's restic-operator: Repository Created False,
//	      "Repository is not yet created"). Not
//	      Reconciling or Progressing, which some operators write on every condition.
//	    - The spec's validity: a type whose last word is Valid or Validated (SpecValid,
//	      ConfigValidated) or that starts with Validation and ends in Passed, Succeeded,
//	      Success or OK. False is Failed (the controller refused the spec), InProgress when
//	      its reason is transient or its message starts with a transient word; Unknown is
//	      InProgress.
//	    - Conditions that all carry observedGeneration, none of them metadata.generation,
//	      on an object without status.observedGeneration (Cilium's pools): InProgress, the
//	      latest spec not acted on yet. A run's outcome still decides first.
//	    - A condition Unknown whose message is a number alone (Cilium's IPsAvailable, "253")
//	      is a count, not a state, and is not read. A type whose last word is Conflict or
//	      Conflicts (PoolConflict) is a failure. A failure beside a condition of work
//	      under way that undoes or recovers from it (a rollback, recovery, remediation,
//	      retry, revert or restore: Pravega's Error True, UpgradeFailed, beside
//	      RollbackInProgress True) is InProgress: the controller is acting on it, and the
//	      work ends by itself. A type named for a failure False whose
//	      message names an error ("cannot", "failed", "invalid": Bitwarden's FailedSync
//	      False, "... cannot both be enabled"), or whose reason names an error and message
//	      one a person must fix (Databend's Error False, TenantStorageError, "Invalid
//	      storage configuration"; or any reason that names no success, beside such a
//	      message: falcon-operator's Failed False, RequirementsNotMet, "... must not be
//	      installed in a namespace with other workloads running. Please change the
//	      namespace"), records the error the other way round: never
//	      Current; Failed when its reason or message says a person must act, as for
//	      Unknown. Such a type False with a message of success, or none, or one that
//	      denies an error ("No warning or error messages observed", the Node Tuning
//	      Operator's Degraded False; "without errors"), says nothing. A past-participle type False (ResourceOwned)
//	      is Failed when its reason or message names an error a person must fix ("Refusing to
//	      reconcile"); InProgress when its reason names the work under way (InProgress,
//	      Updating, Waiting: MilvusUpdated False, MilvusComponentsUpdating), or says that
//	      what it waits for runs (Cybozu's nyamber: PodJobCompleted False, Running, while
//	      its bootstrap jobs run; not a stop's type, Stopped False, Running), or a failure
//	      (vm-import-operator's MappingRulesVerified False, MappingRulesVerificationFailed:
//	      a check that failed, not the other of two states) or something it needs not
//	      found (Rancher Octopus' DeviceLink: AdaptorExisted False, NotFound), or when it is the
//	      object's only condition, which then is its summary (Intel's EthernetNodeConfig
//	      Updated False, PostUpdateReboot); otherwise not read. Updated is a state reached,
//	      not something that befell the object: five operators write it so (Milvus's
//	      MilvusUpdated, OpenYurt's AppUpdated, etcd-druid's AllMembersUpdated, Intel's
//	      Updated, Tortoise's VerticalRecommendationUpdated), none of them as news.
//	    - A message "starts with a transient word" when its first word, up to a space or a
//	      punctuation mark, is one: "ProvisioningRequest is expired" does not.
//	    - Progressing False whose reason names an error a person must fix is Failed, over
//	      an Available False too (ProgressDeadlineExceeded: the rollout has stopped for
//	      good), and so is one whose reason is not transient and whose message names such
//	      an error (AKS app-routing's IngressClassCollision, "IngressClass already exists
//	      and is not owned by this controller"); any other Progressing False is often
//	      progress finished, and says nothing.
//	    - An error written on a condition of any type as Rancher's wrangler writes it
//	      (status False, reason Error, the error as message: Backup's Reconciling False):
//	      Failed when the message says a person must fix something (an invalid value, a
//	      setting not specified, not configured or not set, an API's client error),
//	      otherwise never Current: InProgress, unless the condition's type says more.
//	    - Suspended or Paused True: see 6e.
//	6b. The same conditions, and Ready, in each entry of status.parents (Gateway API
//	    routes), status.ancestors (policies), status.listeners (Gateways),
//	    status.components, and any other list of status whose entries hold conditions (not
//	    a history or a record of what is not now: Datum's DNSRecordSet, recordSets[] with
//	    Programmed False, Conflict, per name): an entry's Ready decides for it, else as
//	    in 6a; an entry with neither, whose condition of another type is False with a
//	    reason that names a failure or what a person must fix (Kuma's
//	    MeshExternalService: hostnameGenerators[].conditions, Generated False, Collision),
//	    is Failed when the reason or message is terminal, else InProgress. So are the
//	    entries of an object of status keyed by name, each with conditions of its own
//	    (Fybrik's FybrikApplication: assetStates["<asset>"].conditions), in key order. The worst entry
//	    gives the verdict; its message names the entry (by its name or its parentRef's or
//	    ancestorRef's).
//	6c. Phases and states: every string field of status named phase, state, status, stage,
//	    health or robustness, or whose name ends in one of them, or in Progress, as a word
//	    (jobStatus, lifecycleState, operationalStatus, PostgresClusterStatus,
//	    cassandraOperatorProgress) or in lower case alone (buildstatus), or is such a name
//	    then Summary (Apache's Spark operator: currentState.currentStateSummary), whose
//	    value is a word (not a number, a duration or a time), and the same fields
//	    one and two objects down (status.provisioning.state, status.cluster.status,
//	    status.pd.phase, status.lastOperation.state, status.kubernetesResources.version.status;
//	    not in an object of more than 64 fields, which is an inventory; and the type of a
//	    status.condition object that has no status, CassKop's condition.type COMPLETED or
//	    FAILED; status.condition itself when it is a word, Stackable's AirflowDB Ready or
//	    Failed), a run's result
//	    (status.result) or verdict (a field named verdict or ending in Verdict: a test's, an
//	    experiment's), and the plain status, state, phase, health and verdict of the first
//	    32 entries of lists, at the top of status, in an object or in an entry
//	    (featureSummaries[].status, workflow.steps[].phase, actions[].phases[].state,
//	    experiments[].verdict), and in the entries of lists at the top of status the
//	    fields named for what they hold as well (modules[].verificationStatus, as Kernel
//	    Module Management's PreflightValidation writes it); but not a state wanted or past (names starting with
//	    desired, target, requested, expected, previous, latest, last or old), unless it
//	    is a record of the run the object is: an object named last or latest and the
//	    kind's last word (status.latestExecution.executionResult.status on a
//	    TestExecution, lastScan on a VulnerabilityScan; lastBackup on a Database is
//	    history) or of the controller's own last operation on the object (last or latest
//	    followed by Operation, Transaction or Sync: etcd-druid's lastOperation, Tyk's
//	    latestTransaction), nor in an object of settings, whose name is or ends in Rule, Rules,
//	    Policy, Policies, Strategy, Config, Configuration, Settings, Template, Spec or
//	    Options (OceanBase's operationContext.failureRule.failureStatus failed is the
//	    status to take on a failure, not one), nor in a list or an object named history,
//	    records or events, or ending in History, Records or Events (the runs past of a
//	    schedule, KubeDL's Cron; the states past of Apache's Spark operator,
//	    stateTransitionHistory by index; Sealos' Devbox commitRecords, one per image
//	    commit; GOV.UK's GSP service-operator, aws.events, the CloudFormation stack's
//	    events, CREATE_IN_PROGRESS among them long after the stack was made). Of a list named for tries
//	    made in order (attempts, retries, or ending in Attempts or Retries: Konflux's
//	    managedPipelineAttempts) only the last entry is read: it is the try that counts,
//	    and the others are what became of tries before it. The worst
//	    value decides, and a state in progress whose status.reason is terminal, or whose
//	    status.message (or first of status.messages) is in the message words (EnMasse's
//	    Address, Pending: "... already exists with resource name ..."), is Failed; a
//	    run's outcome at the top of status decides over a service state (Running, Healthy)
//	    of one of its parts below it, and the object's own state, one of the kind's states
//	    (its definition's enum of status.phase or status.state) that include its end but
//	    neither a success nor a failure, decides over a part's outcome below it (DataTunerX's
//	    FinetuneJob: state BUILDIMAGE beside finetuneStatus.state SUCCESSFUL is InProgress):
//	    - Current: Succeeded, Succeed, Completed, Complete, Done, Finished, Success,
//	      Successful, Accomplished, Successed (a misspelling operators publish as their
//	      own word: shaowenchen's ops), an operation's outcome named by its participle
//	      (Restored, Migrated, Exported, Imported, Processed, Finalized, Delivered), and a
//	      test's or a verdict's Passed and Pass (a run's
//	      outcome, which decides alone unless something failed, or a status.reason beside
//	      it names a failure: TrustyAI's LMEvalJob, state Complete, reason Failed, is
//	      Failed; read from the entries
//	      of a list, the parts listed so far, it does not outrank a condition of work
//	      under way: TALM's clusters[].state complete beside Progressing True), and Healthy, Ready,
//	      Available, Bound, Active, Established, Deployed, Online, OK, Green, Provisioned,
//	      Externally Provisioned, Stable, Synced, Serving, Operational, Up, Reconciled,
//	      Applied, Allocated, Reserved, Installed, the participles of a state reached
//	      (Configured, Attached, Mounted, Issued, Valid, Validated, InSync, Verified,
//	      Converged, Joined, Bootstrapped, Updated, Upgraded, Enabled; not Accepted, which
//	      is not yet acted on), and a workload moved to another site, as disaster
//	      recovery names it: FailedOver, FailedBack, Relocated (not failures).
//	    - InProgress: a compound whose words end in "in progress" (CREATE_IN_PROGRESS,
//	      UPDATE_IN_PROGRESS), Pending, Progressing, Creating, Provisioning, Initializing,
//	      Init and Initial (set up, not yet at work, as a Pod's Init:0/1), Starting,
//	      Updating, Upgrading, Deploying, Reconciling, Waiting, Wait, Scaling, Queued,
//	      InProgress, NotReady, Missing, Processing, Submitted, Requested, Scheduling, Restarting,
//	      Registering, Inspecting, Preparing, Syncing, Installing, Rebuilding, Recovering,
//	      Rebalancing, Reconfiguring, Downgrading, a need not met (Required, Needed:
//	      eks-anywhere-packages' "controller upgrade required"),
//	      Migrating, Suspending, Pausing, Resuming, New, Partial, OutOfSync, Scheduled,
//	      Rolling, RollingUpdate, Bootstrap, Bootstrapping, a first step done (Initialized,
//	      Created, ResourcesCreated: set up, the work not yet, unless another state field
//	      says a state reached and none says other work: Mayastor's cr_state Created
//	      beside pool_status Online; and Created on a kind that stands for a record made in
//	      another system, by its last word — User, Token, Snapshot, Key, Account, Role,
//	      Grant, Bucket, Topic, Schema, Credential, Permission, Record, Entry, Tag, Team,
//	      Member, Webhook, Alias, Password, Volume, Disk — is the state reached, and so is
//	      Created on a kind whose definition lists states with none reached past it
//	      (jace-ys' sentry-operator: Created or Error): kubemox's
//	      VirtualMachineSnapshot, OpenSearch's OpensearchUser CREATED, the Azure Disk CSI
//	      driver v2's AzVolume Created), and so is Created with a message that starts with
//	      the kind's noun and says it went well (azure-apim-operator's APIMProduct:
//	      "Product created successfully"; not a part's, EdgeNet's Tenant: "Core namespace
//	      created successfully", nor on a kind named for a run), the activities that end by
//	      themselves (Building, Exporting, Importing, Downloading, Uploading, Copying,
//	      Cloning, Pulling, Pushing, Compiling, Packaging, Generating, Loading, Applying,
//	      Validating, Verifying, Realizing, Configuring, Allocating, Attaching, Detaching,
//	      Expanding, Resizing, Promoting, Restoring, BackingUp, Snapshotting), and the health
//	      words Warning, Warn and Yellow (but Warning on a kind whose states, as its
//	      definition's enum lists them, have Ready and Warning both is Ready with a warning:
//	      Current, the warning in the message; Kyma's APIRule and Telemetry), a state
//	      reached named for a part (two words or more, not an offer: ReservationReady) on a
//	      kind whose definition's enum lists a one-word state reached past it (zenith's
//	      Client: Pending, ReservationReady, Available, Unavailable, Failed), a verdict not
//	      given yet (Awaited, Awaiting), a
//	      move to another site under way (FailingOver, FailingBack, Relocating), In
//	      Transit, Unknown in a field named for a result (a result not yet given:
//	      MetalLB's ConfigurationState), and Inactive (not yet doing what the object is for: a service
//	      provisioning, a platform installing) unless the spec asks for it (spec.active
//	      false, as spec.enabled false asks for Disabled; see 6e's states asked by name);
//	      Unknown in status.phase, status.state or status.status (Microcks' UNKNOWN while
//	      its modules deploy), work not begun (Inqueue, Planned,
//	      NotStarted, Unscheduled), a lag behind the spec (NeedsUpdate, Outdated, Stale),
//	      a value that says something referred to is "not found" (Giant Swarm's
//	      app-version-not-found: it may yet appear),
//	      and a state reached negated by Un or
//	      Not (Unbound, Unprovisioned, NotAllocated: not reached yet; Unhealthy is a
//	      failure, below), or by Not after the thing it is about (KubeVela
//	      terraform-controller's ProviderNotReady; but …NotValid, a spec not valid, as
//	      its ConfigurationSpecNotValid, and …InValid, Invalid cased as two words (ops'
//	      DataInValid), are Failed, as are NotSupported, NotAllowed and NotPermitted
//	      anywhere in the value: tke-extend-network-controller's NodeTypeNotSupported, a
//	      refusal of the spec as written), and any past participle after Not
//	      or Partially (Datadog's chaos-controller: NotInjected, PartiallyInjected; not
//	      a need negated, NotRequired), and a state named for the start of something
//	      (KubeEye's StartImport), and Under with an activity named as a noun (-tion,
//	      -ment, -ance, Review, Repair, Test: Kloudlite's under-reconcilation,
//	      UnderMaintenance; not UnderReplicated, a shortfall), and a state written as a sentence of three words or
//	      more, with no colon, that starts with an activity (DocumentDB's "Setting up
//	      primary", a CloudNativePG phase it mirrors); such a sentence whose words say a
//	      person must act, as a message's would, is Failed ("Cluster is in an
//	      unrecoverable state, needs manual intervention").
//	    - Failed, with status.message (or status.reason) in the message: Failed, Failure,
//	      Error, Errored, Err, CrashLoopBackOff, Degraded, Unhealthy, Faulted, Red,
//	      Aborted, Timeout, TimedOut, Invalid, Rejected, Crashed, Lost, AlreadyExists,
//	      Conflict, Failing (a failure being wound down, before Failed), a verdict's Fail,
//	      BackOff, CrashLoop, Broken, Corrupt, Corrupted, OOMKilled, Denied, Revoked,
//	      Forbidden (the Hierarchical Namespace Controller's anchor), one of these words
//	      and then a colon and what it is about ("Error: invalid spec.schedule: …", as
//	      cosmos-operator writes status.status), a
//	      compound that says a change was rolled back (ROLLBACK_COMPLETE,
//	      UPDATE_ROLLBACK_COMPLETE, RolledBack: CloudFormation's stack states, which a
//	      CloudFormation operator's Stack mirrors), and any compound that
//	      starts or ends with Failed, Failure or Error (CreateFailed, DEPLOY_FAILED,
//	      FailedValidation, PartiallyFailed), or that starts UnableTo (Tarantool's
//	      UnableToBootstrap; not UnableToConnect or UnableToReach, a server a retry may
//	      reach), or whose first word is Err, as Go names its error values (thavlik's
//	      vpn-operator: ErrSecretNotFound, ErrVerifyFailed; a thing not found, after Err,
//	      is the error named), or is named for a limit of tries reached (Max…, …Limit…,
//	      …Retries… or
//	      …Attempts… ending Reached or Exceeded: Burrito's MaxRetriesReached; or ending
//	      ExceededLimit or ReachedLimit: alert-manager's ClientExceededLimit). A failed state the controller says it
//	      will try again is InProgress: a retry scheduled (a status field named
//	      nextRetry… or retryAt) later than the end of the attempt status records (Velero
//	      vSphere plugin's UploadError; not its UploadFailedAfterRetry, whose retry time is
//	      past), or a status.message with "will" followed within two words by retry,
//	      refresh, resume or requeue (kube-fledged's Aborted, "will get refreshed during
//	      next refresh cycle"), or the reason given beside the state (the field named as
//	      the state's with Reason, vizierReason beside vizierPhase, else status.reason)
//	      names work that ends by itself (Pixie's Unhealthy, ControlPlanePodsPending),
//	      or, for a state at the top of status, status.message starts with a transient
//	      word (wireguard-operator's peer, error: "Waiting for vpn to be ready") or
//	      names what it waits for and no failure (rustcloak's KeycloakRealm, status
//	      Error: "Parent Not Ready"; Microcks' APISource, ERROR: "Microcks instance is
//	      not yet ready"; not "installation failed: timed out waiting …"), or,
//	      the state having no message or reason of its own, a condition not True says a
//	      server could not be reached ("connection refused", "connection reset", "no
//	      route to host", "no such host") and none names an error a person must fix
//	      (Gravitee's processingStatus Failed beside Accepted False, "dial tcp …:
//	      connection refused", which it retries every 5 s). So is
//	      a failed state whose first word calls it transient (cosmos-operator's
//	      TransientError, "system is retrying"), and a failed state whose last word says it is being undone (Reset, Resetting,
//	      Retrying, Recovering, Reverting, Restoring, Remediating: the Bottlerocket update
//	      operator's ErrorReset, which its controller answers by retrying after a
//	      backoff), but not one that ends in the failure (RollbackFailed,
//	      UploadFailedAfterRetry: the recovery is what failed).
//	    - A state at the top of status no vocabulary knows, while a string field of spec
//	      named state or ending in State asks for another by name (the Bottlerocket update
//	      operator's status.current_state StagedAndPerformedUpdate and spec.state
//	      RebootedIntoUpdate, the next step its controller set): InProgress, on the way to
//	      the state asked. Not a stop asked (below).
//	    - status.conditions whose entries have no type but a field named state are parts
//	      with states (Alibaba's CronHPA: its cron jobs, state Submitted, Succeed or Failed),
//	      read as the entries of any list of status are; on a kind that schedules runs
//	      (Cron or Schedule in its name, or a spec.schedule), a part's run queued
//	      (Submitted, Scheduled, Queued, Pending, Created) is where it is meant to be.
//	    - Suspended, Paused, Suspend and Hibernated: see 6e.
//	    - A stop the spec asks for: when a string field of spec named state or action, or
//	      ending in State or Action (engineState, desiredState), is Stop, Stopped, Abort,
//	      Cancel, Halt or Halted, or a boolean of spec says to stop (stop, stopped, halt or
//	      shutdown true, or halted: KubeDB's) or not to run (started, running or active
//	      false: DevWorkspace's spec.started) or spec.replicas is 0 (bemade's
//	      OdooInstance), a value one of whose words is Stopped, Aborted, Cancelled,
//	      Canceled or Halted ("Forcefully Aborted") is where the object is meant to be:
//	      Current, "as spec.engineState asks" (kstatus/PAUSED.md). So is a state of being
//	      off (Disabled, Stopped, Offline, Off, Inactive, Deactivated, Shutdown, ShutOff,
//	      PoweredOff) that a spec field named state or …State asks for by value, over a
//	      Ready not True that says no failure (dana-team's Capp: spec.state and
//	      stateStatus.state disabled, Ready False for the Knative Service it removed). Both are Current over conditions of the
//	      parts it stopped that say no more than not True (a stopped workspace's
//	      DeploymentReady Unknown) or an own status.ready false beside a stop or off state
//	      (the stopped OdooInstance's), and over a Ready left at the generation before the
//	      stop when status.observedGeneration is the latest (a halted database's). So, on
//	      a kind no rule names, does a failure the rest of status reports for this
//	      generation beside such a Ready (gpu-ninja's dex-operator: Ready True for the
//	      generation before, Failed True for this one). Other
//	      values are read as
//	      ever: a verdict Fail beside a stop asked is still Failed. The spec's stop words
//	      are Stop, Stopped, Abort, Aborted, Cancel, Cancelled, Canceled, Halt and Halted;
//	      the state's add Terminated. With no such state, a condition whose reason's last
//	      word is one of the state's stop words says the stop was reached (Azure fleet's
//	      ClusterStagedUpdateRun, spec.state Stop: Progressing False, UpdateRunStopped):
//	      Current too, unless a failure is read.
//	    - The outcome of a stop the spec did not ask for: a value one of whose words is
//	      Cancelled or Canceled (a run canceled from outside: HCP Terraform's
//	      status.run.status canceled), in a field of status or of an object in it (the
//	      object's own run record, status.run), is Failed: the work will not be done, and
//	      nothing resumes it. Not in the entries of a list, which may be a history of runs,
//	      and not Stopped or Halted, which a spec may ask for in ways not read here, nor
//	      Terminated, which says a run ended whatever its outcome (Databricks'
//	      life_cycle_state TERMINATED beside result_state SUCCESS). A spec
//	      field true named for it (spec.cancel, spec.abort) asks for it (6e).
//	    - A state the spec asks for by name: a string field of spec named state, or ending
//	      in State (spec.state Disabled, spec.powerState PoweredOff), whose value is the
//	      state's (compared as words are), is where the object is meant to be: Current, "as
//	      spec.state asks", over a Ready not True that says nothing more (rule 5). Not a
//	      state in motion (Disabling), a failure, work under way, or Running.
//	    - Running in an object or list named for an operation or a task (OceanBase's
//	      operationContext.taskStatus, tasks[].state): InProgress whatever the kind, as an
//	      operation under way ends.
//	    - Running: InProgress for a kind that finishes (6f), whose phases as its CRD's
//	      schema lists them (an enum) include a terminal success, or that its definition
//	      or the object marks as a run. For a kind whose enum has no terminal success,
//	      Running is where it is meant to be, Current. With neither, Running is InProgress
//	      in a field named for a build (buildStatus, buildState, buildPhase: a build always
//	      ends), on a kind whose spec.duration says how long it runs (a Go duration, "10m":
//	      ChaosMeta's LoadTest, Chaos Mesh's chaos kinds; or one object down, in the
//	      object that says what the run does, as ChaosMeta's Experiment's
//	      spec.experiment.duration; not the validity of a Certificate, Token, Key, Secret,
//	      Credential, Issuer, Grant or Lease, of the kind or of that object), or beside
//	      a Started condition True (a run begun and not ended, as Porter's
//	      Installation while its agent Job runs; beside a Ready True, rule 5 decides), or
//	      from a Running condition whose message says a reconciliation runs ("Running
//	      reconciliation", the Ansible operator SDK's while its playbook runs; not
//	      "Awaiting next reconciliation"), InProgress, reason Reconciling, and
//	      otherwise taken to be Current, the message saying it was assumed: a
//	      service-like kind would otherwise hang every wait.
//	    - A value of several words not listed is read by its words, the worst deciding
//	      (ONLINE_PARTIAL is InProgress), unless it starts with a negation (NotRunning).
//	      A value of one word naming an activity no list has (Remediating, Draining) is
//	      InProgress, unless it names a steady state (Idling, Sleeping, Hibernating,
//	      Listening, Streaming, Monitoring, Watching, Working, Managing, Operating; the
//	      -ing words listed above, such as Running or Serving, keep their own reading).
//	      So is a capitalised value of an activity first and then what it acts on
//	      (robolaunch's Submariner: CheckingResources), the activity not a steady one,
//	      and so is one whose first word is the verb of a step as a command (update,
//	      create, delete, sync, copy, scale, migrate, upgrade, install, provision,
//	      rebalance, restore, deploy, build, apply, fetch, download, pull, push,
//	      configure, clone, repair, recover, prepare, resize, import, export, transfer,
//	      convert, drain, rotate, stop, start, launch, restart, remove, register,
//	      cleanup) followed by what it acts on, with no word of an outcome (Tongdun's
//	      td-redis-operator: UpdateQuota while slots move; forklift's CopyDisks,
//	      hwameistor's SyncReplica, nebula-operator's ScaleOut; the Polar Geospatial
//	      Center's ceph-operator: Stop Daemons while a disabled cluster shuts down).
//	      Any other value does not decide, and the message names it if nothing else does.
//	6d. Errors, flags and counts. An error the controller reports now is Failed, quoting
//	    it: status.failureReason or failureMessage (Cluster API's terminal failures),
//	    errorMessage, errorReason, error (a string, or an object's message, else its
//	    userMessage, as HPE DataWorkflowServices' ResourceError, else its description
//	    with its code; an object whose severity is Minor, Major, Warning or Info is an
//	    error retried, InProgress), errors or problems (a list), any other field whose name
//	    ends in Error or Errors (Hydra Maester's reconciliationError, poolboy's
//	    provider.validationErrors, a list) or is error then Status,
//	    Detail, Details, Text, Description, Info or String (route-monitor-operator's
//	    errorStatus, "invalid RawSlo: ..."), and the same fields in the
//	    entries of a list of status (Gatekeeper's byPod[].errors) and one object down
//	    (error, errorMessage or a name ending in Error: Oathkeeper's
//	    validation.validationError; Tyk's latestTransaction.error, a record of the
//	    controller's own last operation; a list errors, whose entries' message or
//	    errorMessage it quotes: config-sync's sync.errors), unless its text starts by saying it waits
//	    (COSI's BucketClaim error "waiting for Bucket to be provisioned": InProgress), or
//	    says, with nothing a person must fix, that another thing is not ready yet or is
//	    in a state on its way (aether-powerdns' failureMessage "Zone is not Ready yet",
//	    "PowerDNSServer authdns is InitializingSchema"; not "is missing"), or waits after a
//	    timestamp (rockoon's "2026-01-10 10:19:30 Waiting osdpl status APPLIED"), or
//	    that a server could not be reached (in any case: connection refused or reset, no route to host,
//	    no such host, "unable to connect", "failed to connect" or "unreachable", and no
//	    client error quoted from the server's answer, HTTP 401: vSphere CSI's
//	    CnsRegisterVolume, "Unable to connect to VC …": InProgress), unless it also names
//	    something a person must fix; a
//	    last or previous error, or one under an
//	    object named so for anything else (lastBackup), is history and is not read. But
//	    the outcome of the latest attempt, a field at the top of status or one object
//	    down named last or latest and then …Result, …Status, …State or …Outcome, whose
//	    value names a failure (frr-k8s' lastConversionResult "failed: …", flotta's
//	    upgradeInformation.lastUpgradeStatus failed, soperator's
//	    slurmJobsStatus.lastRunStatus Failed), is Failed, reason LastAttemptFailed, where
//	    the rest of status says nothing to wait for: what the controller last did for the
//	    spec did not work. And a copy of the spec the controller last applied
//	    (status.appliedSpec, applied_spec or lastAppliedSpec: Rancher's RKEControlPlane,
//	    New Relic's operator) that differs from spec in a value both hold is InProgress,
//	    reason LatestSpecNotApplied, there too (values only one holds, defaults filled in
//	    or fields not copied, say nothing). A
//	    count of failures above zero, at the top of status or one object down (a field
//	    named failures or failureCount, or ending in Failures or FailureCount: Sveltos'
//	    and Kuberhealthy's consecutiveFailures, kapp-controller's
//	    consecutiveReconcileFailures, tofu-controller's reconciliationFailures, SPIRE's
//	    stats.podEntryRenderFailures, EPAM's EDP operators' failureCount beside the error
//	    in status.value; or named for the parts that failed, failed<Parts>: Cloud
//	    Robotics' AppRollout, failedAssignments; not a limit, max…, min…, allowed… or
//	    tolerated…, nor …Limit or …Threshold, nor a last…, previous… or total… one), is
//	    Failed, reason Failures: the controller counts what
//	    it is failing at and resets the count when it succeeds; InProgress when the
//	    message says it waits for something else ("parent group … is not ready yet"),
//	    though not for a server that keeps refusing connections. status.ready,
//	    readyToUse, available, registered, provisioned, initialized, active or healthy
//	    false (or "False", as some operators write flags; Tungsten Fabric's Cassandra,
//	    active false until a quorum of replicas is ready) is InProgress, Failed with a
//	    status.reason that names
//	    an error a person must fix, or a status.message that does; status.valid false (or one object down:
//	    validation.valid), status.invalid or status.isInvalid true
//	    (das-schiff-network-operator's NetworkConfigRevision), or a boolean named for a check's result false
//	    (configCheckResult), is Failed. A part's ready or loaded false one object down
//	    (KubeAI's Model, cache.loaded false while its cache fills) is InProgress, and so is
//	    a part with nothing written ({}) beside one whose ready or available is true: a Go
//	    controller drops a false flag under omitempty (idpbuilder's Localbuild:
//	    nginx.available true, gitea {} while Gitea installs). The
//	    replica counts of a part one
//	    object down (querierStatus.readyReplicas short of querierStatus.replicas) are
//	    InProgress, as the object's own are, and so are counts named as a pair, one of how
//	    many are wanted (desired… or expected…) and one of how many are available…,
//	    ready… or current… of the same things (moduleLoader.availableNumber short of
//	    moduleLoader.desiredNumber, as Kernel Module Management's Module writes them;
//	    currentProcessingUnits short of desiredProcessingUnits, Mercari's
//	    spanner-autoscaler scaling up; a current count above the one wanted is not read,
//	    desired… being as often a minimum: KubeVirt's MachineDisruptionBudget);
//	    readyNodes short of expectedNodes; plain desired against ready or available, as
//	    SkyWalking's OAPServerConfig (not the counts of a pool of capacity, where a count
//	    used, allocated, inUse or assigned beside them makes available the free part:
//	    hybridnet's Subnet, total, used, available; OpenSandbox's Pool); a count of all of something, <noun>Count, against
//	    ready…, available… or updated… of it: OpenShift's MachineConfigPool,
//	    updatedMachineCount short of machineCount while it rolls a configuration out, or
//	    Failed with spec.paused, 6e; and so a count named target… or total…: Katalyst's
//	    updatedTargetNodes short of targetNodes, unless a canary… count, which holds the
//	    update back as a partition does, is reached; and a plain plural count of things,
//	    backends or nodes, against registered…, synced…, bound…, attached…, connected…,
//	    joined… or provisioned… of them, every one meant to be joined: TKEStack's
//	    BackendGroup, registeredBackends short of backends; not ready… or available…,
//	    which a plain count may hold short by design, as Zalando's StackSet keeps an old
//	    stack scaled down), there or at the top of status. A list of status
//	    named pending… that is not empty (pendingPods: work still to do) is InProgress.
//	    So is a count of status above zero named with one of those words of things on
//	    their way (Babylon's WorkshopProvision: provisioningCount 10; pendingTasks,
//	    initializingShards, currentPending), reason the field's name: not one that is a
//	    limit, a setting or a duration (maxPending, startingDeadlineSeconds, pendingInMs)
//	    or counts setbacks (provisioningFailCount).
//	    So is a boolean of status false whose name's last word is a state reached (Ready,
//	    Available, Synced, Deployed, Configured, Applied, Installed, Connected, Updated,
//	    Accepted and the other words of condition types of states reached; Created, Linked
//	    and Rendered, steps of a set-up reported one by one, as Glasskube's MinioBucket's
//	    userCreated and policyLinked; Ok, a check's verdict, as Kuberhealthy's ok;
//	    Authenticated and Authorized, credentials accepted, as InfluxData's InfluxDB's: rpaas-operator's
//	    nginxUpdated false while its Nginx moves to the new revision; the AWS Load Balancer
//	    Controller's accepted false while a secret it needs is missing), reason Not…, with
//	    status.message (or status.reason) beside it, Failed when status.message names an
//	    error a person must fix (obeleh's db-operator: connection_available false, "…
//	    permission denied for view pg_user"); but not beside a summary flag of the
//	    object's true (ready, reconciled or inSync: Wind River's Host, configurationUpdated
//	    false beside reconciled and inSync true), which weighs it.
//	    So are the replicas of the kind's scale subresource short of those asked
//	    (statusReplicasPath below specReplicasPath: Couchbase's CouchbaseAutoscaler,
//	    status.size 3 of spec.size 5), where no count of status says more and
//	    status.desiredReplicas, if any, is not met. A count absent there, beside the
//	    scale's selector (labelSelectorPath) written, is 0, as the API server's /scale
//	    reads an absent statusReplicasPath: the controller keeps the scale's status and
//	    dropped a 0 (coil's Egress: status.selector set, status.replicas omitted, 2 asked).
//	    Without the selector an absent count is not read: it may be one never written.
//	    Nor are the replicas short when the spec asks for a stop, at its top
//	    (rpaas-operator's spec.shutdown) or beside the replicas asked (kf's App,
//	    spec.instances.stopped beside spec.instances.replicas).
//	    So is an entry of a list of status short by its own counts (a total, all or
//	    desired against ready or available: PDOK's podSummary[0], available 1 of total 2).
//	    So is a boolean named for work in progress (a name ending in InProgress:
//	    deployInProgress; or whose last word names a change under way: Amadeus' Kafka
//	    Connect operator's updating) true. So is a field named needs… (needsReconcile, needsRestart) true, or a number above
//	    zero (the generation that needs it), at the top of status or one object down: work
//	    the controller has yet to do, reason Needs… (synapse-operator's needsReconcile,
//	    set when a bridge is attached; FoundationDB's generations.needsBackupStart).
//	    So is a number at the top of status named for the generation the controller
//	    applied (an optional last, then Applied, Reconciled, Observed, Synced, Processed,
//	    Handled, Completed, Built or Deployed, then Gen or Generation: Hedgehog's
//	    lastAppliedGen, galleybytes' lastCompletedGeneration) below metadata.generation:
//	    reason LatestGenerationNotApplied, as an observedGeneration behind it is.
//	    readyReplicas or
//	    availableReplicas short of status.desiredReplicas (the number the controller
//	    decided on: Zalando's stackset-controller scales a Stack no traffic reaches to 0
//	    whatever spec.replicas says), else spec.replicas (or, without it, spec.instances or
//	    spec.size), else status.replicas; status.replicas short of that number asked for in
//	    spec, where status has neither readyReplicas nor availableReplicas (eirini's LRP:
//	    replicas 1 of spec.instances 3 after a scale); numberReady short
//	    of desiredNumberScheduled, or a status.ready of "2/3" (or any field with Ready in
//	    its name: currentStandingByReadyDesired "3/6") is InProgress. So is a have/want
//	    fraction short in any other string field of status, at its top or one object down
//	    (the column a controller prints for kubectl: Paladin's contractDepsSummary "1/2",
//	    the CloudWatch agent's scale.statusReplicas "1/3", KubeBlocks' progress "1/3"),
//	    reason Partial, unless the field's name counts setbacks (fail, error, restart,
//	    retr, attempt, backoff, crash, unhealthy, unavailable, lost, evict, skip, reject,
//	    warn, denied: "retries": "2/5" is not work still to do). A readyReplicas left
//	    out beside availableReplicas is taken as that many (available replicas are ready
//	    ones; a controller may publish only those, as vLLM's VLLMRuntime). Replicas counted
//	    in a state reached of the operator's own (Agones' allocatedReplicas,
//	    reservedReplicas) are in use, not missing; counts of replicas on their way or in
//	    trouble (progressingReplicas, unhealthyReplicas) make up for none. updatedReplicas
//	    short of the same desired number is a rollout not over: InProgress, reason
//	    LessUpdated (Slurm's NodeSet replacing pods one at a time, Mattermost's
//	    installation in state ready before every pod runs the new version), unless a
//	    partition (a number, at most three objects down in spec) or an OnDelete update
//	    type holds replicas back by design. status.replicas above it beside an
//	    updatedReplicas or a readyReplicas is old replicas still being removed: InProgress,
//	    reason ExtraPods (Gardener's MachineDeployment draining its surge machine's
//	    predecessor; STACKIT's yawol LoadBalancer, 4 replicas of 2 while a new machine set
//	    comes up); not when every one of them is ready and no updatedReplicas is given,
//	    a number spec multiplies by design (Liquid Metal's MicrovmDeployment: spec.replicas
//	    per host, 4 ready of 2 on 2 hosts). A version
//	    status names as the one being moved to (target…, desired…: targetVersion,
//	    target_version) that is not the one it names as running (current… or
//	    observed… with the same ending: currentVersion, current_version; a leading v
//	    and a note after the version aside, eks-anywhere-packages' "2.10.2-3b6f4e1a
//	    (latest)") is an upgrade not done: InProgress, reason VersionNotReached (CoreOS
//	    etcd-operator's EtcdCluster, Pravega's and BookKeeper's clusters, Bottlerocket's
//	    update operator, whose node waits its turn with both states Idle). So is a
//	    string field of status named for the value now (current… or current_…:
//	    currentSize, currentVersion; not currentState, Status, Phase, Replicas, Revision
//	    or Generation, read above) that is not what the spec field of the same name asks
//	    for (TopoLVM's LogicalVolume, currentSize 1Gi against spec.size 2Gi while the
//	    volume grows; it outranks a run's outcome state, which is then the last
//	    operation's: Carina's LogicVolume, status Success, currentSize 10Gi of 20Gi; etcd-operator's and BookKeeper's currentVersion against
//	    spec.version): InProgress, reason NotReached. The same quantity written another
//	    way (2048Mi, 2Gi) and a version to the precision asked (spec 16, status v16.2) are
//	    reached: a spec that names less than status reports must not hang a wait. Where
//	    nothing else in status decides, so is a string field status repeats from spec by
//	    name with another value, both one token (letters, digits, '-', '_', '.'), the name
//	    not one of an identity, a place, a time or a version (…name, …id, …hash, …ref,
//	    …host, …revision, …image, …digest, …url, …address, …endpoint, …namespace, …region,
//	    …zone, …key, …secret, …token, …generation, …time, …version), whose status form may
//	    differ from spec's by design: laf's Bucket, spec.policy readwrite while status.policy
//	    is still private.
//	6e. A schedule of runs (Cron or Schedule in its kind's name, or a spec.schedule) in
//	    work that waits for its next run — a reason or state with a word wait or waiting
//	    and the word next (cosmos-operator's ScheduledVolumeSnapshot, WaitingForNext), or
//	    beside a time of the next run in status (next…Time: OpenShift Metering's Report,
//	    Running False, ReportingPeriodWaiting, nextReportTime) — is between runs, where a
//	    schedule is meant to be: Current, as a CronJob is.
//	    A condition not True whose reason names the state the spec asks for by a boolean
//	    (MOCO's MySQLCluster, spec.offline true: Available and Healthy False, reason
//	    Offline; or named by an annotation "true" whose name after its prefix is the
//	    state: kcp's LogicalCluster, core.kcp.io/inactive and phase Inactive; or whose
//	    last word is the state a spec field named for a state asks for,
//	    or its participle: OpenChoreo's ReleaseBinding, spec.state Undeploy, Ready False,
//	    ResourcesUndeployed), when that is the worst news and no condition says work is
//	    under way, is Current, "as spec.offline asks", as a state so named is (6c); and
//	    so when the worst news beside it is status.ready false, which such a state leaves
//	    (Substratus' Notebook: Serving False, Suspended, with spec.suspend). So
//	    is a condition True whose type is the state a spec field named for a state asks
//	    for (OpenShift's managementState Removed, and Removed True, while the counts of
//	    what was removed read 0 of 1), unless something failed or work is under way; and
//	    a condition False that a spec boolean turns off, Enabled beside spec.disable or
//	    spec.disabled true, Running beside spec.stop or spec.stopped true, its reason
//	    naming no error (IBM's WebSphereLibertyTrace and Open Liberty's OpenLibertyTrace:
//	    Enabled False with spec.disable): Current, as asked.
//	    Suspensions, against the spec (kstatus/PAUSED.md). A Suspended or Paused condition
//	    (or one whose type ends in Paused or Suspended: ScanningPaused, ReconciliationPaused)
//	    True, or a state Suspended, Paused, Suspend or Hibernated, is Current when the spec asks for
//	    it (spec.suspend, spec.suspended, spec.paused or spec.pause true, also asked as a
//	    question, as Glooscap's spec.isPaused; a spec field
//	    starting with suspend or pause that is an object with a field true, as TiDB's
//	    suspendAction, or a list not empty, as NodeHealthCheck's pauseRequests; a boolean
//	    true one object down named for it, as Stackable's clusterOperation.reconciliationPaused
//	    and VMware CNSI's strategy.suspend,
//	    or two down in an object of at most four fields (Stackable's Superset:
//	    spec.clusterConfig.clusterOperation.reconciliationPaused);
//	    spec.runPolicy.suspend, as Kubeflow's jobs; spec.enabled false, the object
//	    turned off as a whole, as Demeter's Backend (runningStatus paused), where a
//	    message names it "spec.enabled false"; an annotation or a label "true"
//	    whose name starts with pause, as Chaos Mesh's experiment.chaos-mesh.org/pause,
//	    Strimzi's strimzi.io/pause-reconciliation or Solace's solace.com/pauseReconcile
//	    label): suspended as asked and
//	    reached, as a suspended Job. When the spec does not ask, it is Failed, reason
//	    Suspended: only a person resumes it. A run still running while the spec asks for a
//	    suspension is InProgress, reason Suspending, and so is a suspension reached in one
//	    state field while another still reads Running or in progress (one part suspended,
//	    another not yet). An object the spec pauses (spec.paused
//	    or spec.pause, or any pause asked as above) with work left (InProgress) is Failed,
//	    reason Paused: its controller stops acting on it, as on a paused Deployment; so is
//	    a pause asked and reported (ReconciliationPaused True) beside a condition False, a
//	    state or a count that says work is left, and an object otherwise Current whose
//	    status.updatedReplicas is short of spec.replicas (a rollout the pause stopped
//	    midway, Gardener's MachineDeployment; not with an OnDelete strategy or a
//	    partition). Conditions the pause left Unknown report
//	    no work (StackRox's Deployed Unknown once paused): Current; so is a Ready Unknown
//	    with no condition False while a pause is asked, and a Ready not True whose reason
//	    says paused, with no other condition not True but for the same reason
//	    (argocd-autoscaler's ReplicaSetScaler: Ready False, Paused, spec.paused;
//	    Stellar-K8s' StellarNode: Ready and Available False, NodeSuspended,
//	    spec.suspended). A pause is also asked by
//	    spec.managementState Unmanaged, OpenShift's operator convention (its operators'
//	    custom resources, as the cluster-logging-operator's ClusterLogForwarder, whose
//	    Ready is Unknown, "Updates are ignored when the managementState is Unmanaged").
//	6f. A kind that finishes is Current only once its run has ended: a Current read from
//	    Running, a run begun (Created True) or nothing at all is InProgress, reason
//	    NotFinished, unless status records a completion time (completionTime, endTime, ...)
//	    and nothing says the run failed, nor that a step is still to go (a state in
//	    progress beside it: nagare-media's Workflow, endTime written, phase
//	    AwaitingCompletion before Succeeded), or a condition True whose reason is the
//	    object's own outcome (the kind or its last word, then Succeeded, Completed,
//	    Complete or Finished: Cybozu's fin, StoredToNode True, BackupCompleted, on a
//	    FinBackup; ReadyToUse True, RestoreCompleted, on a FinRestore), which is the run
//	    ended. A kind finishes when its definition says so
//	    (KindInfo.Finishes: a completion-time field in status, a run's limits in spec, an
//	    outcome among the conditions' types, a terminal success, Passed among them, in the
//	    enum of a state field of status, one or two objects down, as 6c reads them:
//	    executionResult.status in a TestExecution's latestExecution; not in a field or
//	    object named for another operation the object runs on the side, whose first word
//	    is build, backup, restore, migration, upgrade, snapshot, sync, import or export,
//	    as LlamaDeployment's buildStatus or Hazelcast's restore.state: that operation
//	    ends, not the object), or the object does
//	    (status.completionTime, finishedAt, endTime, timeCompleted and the like;
//	    status.startTime, startedAt, startTimestamp, startedTime or timeStarted, a start
//	    recorded, as Antrea's Traceflow,
//	    Shipwright's BuildRun and k8up's Backup write it — 32 of 33 kinds in the fixtures
//	    that record one are runs — unless spec starts and stops the object by a boolean
//	    started, running, stopped or active, as DevWorkspace's, or the kind is named for
//	    something that serves until removed, its last word or itself Service, Server,
//	    Cluster, Deployment, Instance, Gateway or Database, as Sedna's
//	    JointInferenceService; or a boolean completed,
//	    complete, finished or done, or one named for a stage's end (runnerCompleted,
//	    reportCompleted: Gatling's, which a definition declaring them makes a kind that
//	    finishes; not a stage of setting up, bootstrap, init, setup, install or
//	    provisioning: howl-cloud's RedisCluster, bootstrapCompleted, serves once
//	    bootstrapped; nor housekeeping by its last word, GC, Cleanup, Prune: a Cloudflare
//	    operator's legacyCompanionGCDone), true once the run ended, every one the object has, or a boolean of
//	    the run's outcome, succeeded, success or successful (etcd-operator's EtcdBackup
//	    and EtcdRestore): true is a run that ended well, false beside a text of why
//	    (status.reason, Reason, message, error or errorMessage) one that failed, Failed;
//	    spec.backoffLimit,
//	    ttlSecondsAfterFinished, activeDeadlineSeconds (not beside spec.replicas: a
//	    service copying Pod fields into its spec, Oracle's Coherence) or runPolicy, or a field to cancel
//	    the run, spec.cancel, canceled or cancelled; a condition of an
//	    outcome type, whatever its status (a Failed condition only when not False: a
//	    long-running kind keeps one False once a failure is over, as Kogito's
//	    KogitoRuntime), or one naming the object's own outcome: the
//	    kind or its last word followed by Succeeded, Completed, Complete or Finished, as
//	    Kaito's WorkspaceSucceeded on a Workspace), or its kind is named for a run: its last word
//	    is Job, Run, Execution, Backup, Restore, Batch, Snapshot, Dump (OpenLibertyDump) or
//	    Training (odahu-flow's ModelTraining), or it is that word alone
//	    (TaskRun, TestExecution, SGBackup, Infinispan's Backup, QuestDBSnapshot; a state
//	    Active on such a kind, or on an object whose spec sets one of the run's limits
//	    above, as CITA-Cloud's Switchover its ttlSecondsAfterFinished, is a run going on,
//	    as a Job's active pods), or it
//	    is named for an operation that finishes: its last word, or the kind alone, is
//	    Migration, Migrate or Operation (Forklift's and vJailbreak's Migration, MTC's
//	    MigMigration, HwameiStor's LocalVolumeMigrate, OceanBase's OBTenantOperation; not MigrationPolicy or MigrationPlan, and not
//	    Build, Task or Test, which name a run's definition as often as a run, unless
//	    the object's own conditions say a run was set up or began, Initialized, Created,
//	    Scheduled, Submitted, Admitted, Started or Running True, or its phase or state is
//	    a run going on (Running), which no definition publishes: eirini's Task, Kogito's
//	    KogitoBuild, Lagoon's LagoonTask), so an
//	    unknown or empty state on it is InProgress until an outcome; unless it schedules
//	    runs (a word Cron or Schedule in the kind, as CronJob or ScheduledBackup, or a
//	    spec.schedule). An object whose spec asks for runs on a recurring schedule (a cron
//	    expression, "0 2 * * *" or "@daily", in a field schedule, cron, cronSchedule,
//	    cronExpression or cronSpec of spec, at most two objects down: JuiceFS' WarmUp with
//	    policy.cron.schedule) is a schedule whatever its kind says. Nor does an object
//	    whose spec asks by name for the state its run is to be in (a string field of spec
//	    named state or …State whose value is Running or a pause: FoundationDB's
//	    continuous FoundationDBBackup, spec.backupState Running, Paused or Stopped): it runs
//	    until its spec asks otherwise. So a job that is still running never reads Current.
//	6g. No status at all (or an empty one): with the kind's definition (Options.Kinds,
//	    KindInfo), a kind that declares a status — status properties in its schema (or
//	    x-kubernetes-preserve-unknown-fields), or the status subresource beside a schema
//	    that says nothing of status — has not been reported on by its controller yet: InProgress,
//	    reason NoStatus, unless the kind schedules runs (Cron or Schedule in its name, or
//	    a spec.schedule), or the object's spec asks for runs on a cron schedule (a cron
//	    expression at most two objects down: clustercode's Blueprint, spec.scan.schedule):
//	    as a CronJob, it has nothing of its own to wait for, Current
//	    (Hazelcast's CronHotBackup writes no status). A kind that declares none has
//	    nothing to wait for: Current, saying
//	    the kind publishes no status. A status schema that declares no field, keeps no
//	    unknown ones and is no map (kubebuilder's scaffold, an empty Status struct) is
//	    none, subresource or not: the server prunes whatever a controller writes there
//	    (adcs-issuer's AdcsIssuer, observability-operator's ThanosQuerier, the
//	    redis-operator's Redis). Current, saying
//	    the kind publishes no status. Without the definition, Current, as kstatus cannot
//	    know a controller exists; but InProgress (NoStatus) for a kind named for a run
//	    (6f), which is written once the run is made or fails (etcd-operator's
//	    EtcdBackup).
//	6h. A status.reason beside nothing that decides (an operator that reports only a
//	    reason and a message, or a reason beside a state no vocabulary knows) is Failed
//	    when it names an error a person must fix (the reasons below; a sentence by the
//	    message words), InProgress when it names a failure otherwise (InstallFailed, a
//	    sentence with failed, error, cannot or unable and no transient word): something
//	    went wrong that the controller may yet mend; but Failed when status.message beside
//	    it is terminal by the message words (Che's InstallOrUpdateFailed, "... Check
//	    operator logs for details."). A status.message with no status.reason beside it,
//	    naming an error in the words above (the SOPS secrets operator's "Decryption
//	    error", its only status field) or saying that something is required (Boilerr's
//	    "command is required"), is an error reported, as in an error field (6d):
//	    Failed, unless it starts by saying it waits. A status.reason written as a sentence
//	    that says a server could not be reached ("dial tcp …: connection refused") or that
//	    something named does not exist is InProgress. A field at the top of status not
//	    named for a state, whose value is one word that names a failure or work under way
//	    (Radius' status.phrase Failed or Updating), is that state: Failed or InProgress,
//	    the first such field by name; not a field named for a state wanted or past
//	    (desired…, last…) or for what its value is of (…Reason, …Message, …Type, …Kind,
//	    …Mode, …Policy, …Strategy, …Role, …Scope). So is a state status.message states at its
//	    end ("Backup State: Completed": a word State, Status or Phase, a colon, one word;
//	    YugabyteDB's Backup): a terminal success Current, a failure Failed, work under
//	    way InProgress. On a kind that finishes (6f) with nothing else read, these, and
//	    a status.message or status.reason that is Failed as above, decide before "not
//	    finished". A condition True of something that
//	    befell the object whose reason is the state the spec asks for (Kubeflow Pipelines'
//	    ScheduledWorkflow: Disabled True, reason Disabled, with spec.enabled false) is
//	    Current, as asked; any other is InProgress. Otherwise Current, and the message
//	    says what was read and not understood: the conditions found and the first state
//	    value no vocabulary knows.
//	6i. Operators written with kopf, the Python framework, keep each handler's progress
//	    on the object, in status.kopf.progress.<handler id> or in an annotation
//	    <prefix>/<handler id> (kopf.zalando.org, or the operator's own: Twingate's
//	    twingate.com) whose value is the record as JSON, and delete every record once
//	    all the handlers of a change have finished. So a record whose handler has not
//	    succeeded is the change not made yet, whatever else status says: InProgress
//	    (HandlerRunning, or HandlerRetrying once it was retried or delayed: Twingate's
//	    TwingateResource waiting for its gateway, Babylon's AgnosticVComponent retrying a
//	    503), where the rest of rule 6 reads Current; a handler failed for good (failure
//	    true: kopf's PermanentError, its retries or timeout spent) is Failed
//	    (HandlerFailed) where the rest reads Current. (kopf.go)
//
// Reasons (and, where a reason is unclear, messages) are read by their words. Transient
// words win: Waiting, Pending, Progressing, Reconciling, Creating, Provisioning,
// Initializing, Updating, Dependency, Retrying, Requeue, Temporary, Transient, Throttled,
// NotReady, Yet, InProgress, Starting, Deleting, Scaling, Upgrading — unless the reason
// ends in a terminal word, which says what became of the wait (InitializingTimeout); and
// not an -ing word right after Error, Errors, Failed, Failure or Expired, which names the action
// that failed (faros' ErrorCreatingChild, "error updating child ...: is invalid"). A
// reason is terminal with one of Invalid, Forbidden, Unauthorized, Unauthenticated,
// Denied, Misconfigured, Misconfiguration, Malformed, Unsupported, Fatal, Unrecoverable,
// Unreconcilable (Couchbase's condition type),
// Illegal (the Hierarchical Namespace Controller's IllegalParent), Overlap, Overlaps,
// Overlapping (Linkerd's EgressReasonNetworkOverlap), Incorrect
// (cluster-api-operator's IncorrectVersionFormat), Permanent, Exceeded, Rejected, CrashLoopBackOff, Crash, Timeout, Undefined, Lost, Refused
// (but Connection Refused, a server not listening yet, is transient), Refusing, Immutable,
// Incompatible, Conflicted or Conflicting (Gateway API's reason for a policy or route another
// overrides; ConflictingMachineHealthCheckDetected), Collision (IngressClassCollision),
// Duplicate or Duplicated (zitadel-operator's DuplicateSingleton) or
// Intervention ("User Intervention Required": a person must act), Action then Required
// or Needed (terranetes' ActionRequired, UserActionRequired; not after No), Abort or Aborted (the
// controller gave up: AbortProcessing), Owned, Own or Owner after Not (NotOwned, NotOwner),
// owned, managed, controlled or claimed by another ("DNSZone claimed by another resource"),
// another … owns or holds ("Another DNSRecordSet owns this record"), or with a subject
// (Config, Configuration, Validation, Spec, Init, Initialization, Authentication,
// Authorization, Auth, Permission, Credentials, Schema, Syntax, Parse, Certificate, Cert,
// License) and Error, Failed, Failure or Expired together (ConfigError, ValidationFailed,
// "YAML parse error", TLSCertificateExpired). A message is
// terminal only with the first nine of those words, Illegal, Incorrect ("illegal version
// string"), Refusing, Intervention, Permanent or
// Permanently ("Failed permanently: ..."), "already exist" or "already exists" (a name
// another object holds), "not owned" or "not own" (NotOwned, "an existing Service … that
// the Deployer does not own": a name someone else's object holds), "owned by", "managed by"
// or "controlled by" another, other or a different one (the AWS VPC Lattice controller's
// "ServiceNetwork … is owned by another controller"), a constraint the spec breaks ("must be", "must not be" or "must
// not" followed by anything but a state some object is to reach: "TTL must be 1 when
// proxied", "must be set"; not "must be ready first"; or "must" followed by start, begin,
// end, contain, match, include, have, equal, specify, reference or use: eks-anywhere-packages'
// "Packages namespaces must start with: eksa-packages"; or "cannot be", "can not be" or
// "can't be" followed by required, configured, created, used, set, changed, modified,
// removed, added, combined, specified, enabled, disabled, empty, negative, zero or a
// comparison: "service account can not be configured with public client", not "cannot be
// fulfilled", the API server's conflict), a value said to be needed ("is required" or
// "are required": Metal3's ironic-standalone-operator, "rangeBegin and rangeEnd are
// required"), a request to change it ("please
// set", "please specify", "please provide"), an instruction to apply the object again
// ("re-apply" or "reapply": Doppler's "Delete the managed secret and re-apply") or to look
// into what went wrong ("check" or "see" followed within seven words by logs, log or
// details: OpenStack keystone-operator's "Check job logs", Kluctl's "Check
// status.lastPrepareError for details", Che's "Check operator logs for details", the AWS
// Load Balancer Controller's "See events and controller logs for details"; an instruction, and a constraint
// the spec breaks, outweighs the transient words before it: RadonDB's "The user
// provisioning has failed: … password must not be empty"), "not supported"
// or "no longer supported" (Unsupported in words, in reasons too), "not permitted", "not
// allowed", "does not allow" or "does not permit" in a sentence (Forbidden in words:
// knative-gcp's "the policy does not allow creation"; Envoy AI Gateway's "cross-namespace reference
// ... is not permitted"; not in a reason, where the Gateway API's NotAllowedByListeners is a
// route a listener does not take yet), a key missing from what the object refers to ("no"
// or "missing" within four words before "key", or "key" followed within four words by
// "missing" or "not found": the Cloudflare operator's "secret has no key named apiToken",
// Envoy AI Gateway's "missing azure client secret key", AWS Private CA issuer's "no AWS
// Access Key ID Found"; a person must edit the Secret), more than one object where one is
// allowed ("multiple" or "more than one" followed within four words by found, match,
// exist or select and their forms: Envoy AI Gateway's "multiple BackendSecurityPolicies
// found", NVIDIA's GPU operator's "multiple NVIDIADrivers match the same node"), Max or
// Maximum followed by
// Attempts, Retries, Restarts or Tries ("after maximum attempts: 3", a limit reached; in
// reasons too), one of those words followed by Exhausted ("install retries exhausted",
// RetriesExhausted), or a subject and an error: in
// free text, "exceeded" or "timeout" is often a network call's. Anything else is unclear, and stays
// InProgress.
//
// testdata/kstatus/unruled holds cases of many operators' kinds no rule names, written from
// the operators' own types and controllers; TestUnruledFixtures holds inference to them.
//
// Compute alone knows no definitions; ComputeWith takes them through Options.Kinds, and
// KindInfoFromCRD reads one from a CustomResourceDefinition. kates does this for every
// custom resource it watches or waits for.
//
// # Status rules
//
// A kind may also have a status rule: CEL expressions, the language Kubernetes uses for
// CRD validation, that decide from the object whether it is in progress, failed or
// current (see Rule for the variables and the order the expressions are tried). Status
// rules run after rules 1 and 2, which hold for every kind (except that an
// observedGeneration that is not a number, such as the spec hash old Argo Rollouts keep,
// skips rule 2 for a kind with a status rule instead of making it Unknown, and a rule's
// paused expression, true of a suspended or paused object whose controller will not
// observe a new generation until a person resumes it, lets the rule decide before rule
// 2), and before rule 3: a kind someone wrote a rule for is one whose conditions do not
// say enough. A kind with a
// built-in rule (rule 4) keeps it unless the status rule sets Override. A rule with a
// current expression decides every object of its kind; one without decides only when its
// inProgress or failed expression matches, and otherwise leaves the object to rules 3–6.
// A rule's Current is not trusted over a Ready condition whose own observedGeneration is
// older than metadata.generation: that is InProgress (LatestGenerationNotObserved), as
// rule 5 holds for kinds without a rule, since a rule that reads Ready may not compare its
// generation.
//
// A rule names one group and kind, or many: a group "*.suffix" matches every group
// ending in ".suffix" (not the suffix alone), for operators that make a group per cloud
// service, such as Crossplane's providers ("*.crossplane.io", "*.upbound.io"), and a kind
// "*" matches every kind of its group. The most specific rule wins: an exact group over a
// wildcard, a longer suffix over a shorter one, then an exact kind over "*", then a rule
// for the object's version over one for any. An object an exact rule matches is looked up
// as fast as before; one none matches pays a suffix comparison per wildcard group. The
// caller's rules are looked up before the library's, wildcards included.
//
// Compute uses the built-in library of status rules (Library) for widely deployed custom
// resources: Argo Rollouts, Workflows, Events and CD, Flux, cert-manager, Cluster API,
// Crossplane and its providers (by wildcard), Config Connector and ACK (by wildcard),
// OpenKruise, Knative Serving, KEDA, CloudNativePG, Strimzi, Prometheus Operator, Istio and
// others; the README lists the kinds. ComputeWith adds the caller's rules (LoadRules, CompileRules), which win over the
// library's for the same kind, or turns the library off; Explain also names the rule that
// judged.
//
//	rules, err := kstatus.LoadRules(data, "rules.yaml") // errors name rule and expression
//	res, err := kstatus.ComputeWith(u, kstatus.Options{Rules: rules})
//
// Every expression of the caller's rules is compiled and type-checked when the rules are
// loaded, so a rule that cannot work is an error then, never later (the library's are compiled
// on the first object of their kind, so that a program pays only for the kinds it meets; a
// test compiles them all); CheckSchema also catches a misspelt field
// given the kind's schema. An expression that fails on an object (it reads a field the
// object lacks: test with has()) makes the object Unknown with a *FieldError naming the
// rule and the expression, as a malformed field does.
//
// Rules in another language join a RuleSet as CustomRules (NewCustomRules), tried where a
// CEL rule would be. Package kstatus/luahealth runs Argo CD's Lua health checks that way,
// and, once imported, makes LoadRules read an argocd-cm ConfigMap too
// (RegisterRuleDecoder); kstatus itself links no Lua.
//
// Numbers are read in any form a decoder or a person produces (int64, int32, float64,
// json.Number, a numeric string). A value that is not a whole number where one is needed
// makes the Result Unknown, with a *FieldError naming the field: Compute never panics on
// a malformed object, and never reports InProgress for one, which would leave a waiter
// hanging on an object that cannot change. The same holds for the status of a condition
// a rule reads: anything but "True", "False" or "Unknown" (absent, "", "Yes") is
// malformed; on a kind no rule names, "true", "false" and "unknown" in lower case are read
// as those (Flotta's EdgeDeviceSignedRequest writes them so, and its schema allows it),
// as they read one way only, and so is a boolean on a type other than Ready, Stalled and
// Reconciling (Netcracker's {type: Failed, status: true}); an entry of a type other than Ready, Stalled and
// Reconciling with any other status is no condition and is not read (Shopware's Store
// keeps a log of steps there, {type: setup, status: Ready}): the server validated it
// against the operator's schema. A status.observedGeneration is read only when metadata.generation is
// present: without one there is nothing to compare it with, and whatever it holds does
// not decide. A status that is a string is malformed, unless it is a state word the
// vocabularies of 6c know (OpenEBS zfs-localpv's ZFSBackup declares status a string: Init,
// Done, Failed): then it is read as status.status is. A status.conditions that is an
// object rather than a list is malformed on a
// kind some rule names, whose schema is known; on any other kind the server validated it
// against the operator's own schema, so it is that operator's shape: its lists of
// conditions (entries with a type and a status, as Tortoise's
// status.conditions.tortoiseConditions) are read as the conditions, in key order, and so
// is each member that is one condition under other names (a status of True, False or
// Unknown and a type in a field named type or condition: Function Mesh's
// status.conditions.StatefulSet, {condition: StatefulSetReady, status: "False"}). A kind no
// rule names without status.conditions may keep them elsewhere: status itself, when it is
// one condition with a type field (fabric-operator's IBPPeer: {type: Deploying, status:
// "True", reason: waitingForPods}); the conditions of parts one object down kept by type
// (ClusterLink's Instance: status.dataplane.conditions.DeploymentReady), the worst of each
// type; one condition-shaped
// object in status.condition; condition-shaped objects with a type field under names of
// their own, in key order (kopf handlers' results: Rubin's gafaelfawr, status.create
// {type: ResourceCreated, status: "False", reason: Failed}); and, in objects whose name ends in Conditions, conditions or
// lists of them per part (Function Mesh's status.functionConditions, Liqo's
// status.remoteNamespacesConditions, keyed by remote cluster); these are read the same
// way. Where parts report a condition of one type, the object's is the worst of them
// (False, then Unknown, then True; the first in key order among equals): all the parts
// are ready only if each is. A condition read from a part names it in its message when it
// has none of its own ("FunctionReady is False (status.functionConditions.ex2)").
//
// # Why Ready is honoured
//
// The kstatus conventions ask controllers for abnormal-true conditions, Reconciling and
// Stalled, whose absence means all is well. Few controllers publish them; most publish
// Ready, which is normal-true. Ignoring Ready would make every such custom resource
// Current the moment it is created, so rule 5 honours it. The price: Ready False cannot
// say whether the controller is making progress or is stuck, so it is InProgress, and a
// wait on it ends only at the caller's timeout.
//
// # Why a running Job is InProgress
//
// The common use of a Job in a manifest is a migration or a setup step that what follows
// depends on. "Apply, then wait" must wait for it to finish. cli-utils' kstatus reports a
// running Job Current, so such waits return early; here it is InProgress until Complete,
// and Failed once the Job gives up (from FailureTarget, which the controller sets
// before its pods have terminated). A suspended Job is Current: nothing will happen
// until someone resumes it. Suspended means the controller has set the Suspended
// condition True; a Job whose spec.suspend is set but not yet acted on may still be
// running its pods, and is InProgress (reason JobSuspending).
//
// # Why a paused Deployment is Failed
//
// A Deployment paused (spec.paused) before its rollout finished will not finish it until
// someone runs kubectl rollout resume: the controller creates no new ReplicaSet, scales
// no old one down, and stops the progress deadline clock, so no timeout inside the object
// will ever fire either. A caller waiting for it can only run out its own timeout; what it
// wants is to hear at once that the wait is blocked on a person, and on what. So Compute
// reports it Failed, reason DeploymentPaused (the controller's own reason for the pause),
// and Wait stops there naming it, as it does for any Failed object. kubectl rollout
// status waits on such a Deployment to its timeout without naming the pause; helm --wait
// calls any paused Deployment ready (its checker's PausedAsReady option), so it returns
// with the old pods still serving; Argo CD gives it a status of its own, Suspended. A
// caller that paused a Deployment on purpose and wants to wait for the rest can tell the
// pause by its Reason. Only the rollout is blocked: a paused Deployment still
// scales and its pods still become ready, so a paused Deployment short of pods but with
// no old pods left is InProgress, and one with nothing left to do is Current. A suspended
// Job is different: its spec asks for no pods, and once the controller has stopped them
// the Job is exactly what its spec says, hence Current.
//
// # Kinds
//
// Every kind a kube-apiserver 1.37 serves by default has a rule of its own below, or is
// named with the reason the generic rules (2, 3, 5 and 6) are right for it.
//
//   - Core: Pod, ReplicationController, PersistentVolumeClaim, PersistentVolume,
//     ResourceQuota, Service and Namespace have rules; ConfigMap, Secret and ServiceAccount
//     are always Current. Node is generic: its kubelet publishes Ready, which is rule 5's.
//     Endpoints, Event, LimitRange and PodTemplate have no status and nothing acting on
//     them to wait for; whether a Service reaches its Pods is judged across objects,
//     not here (see Limits). ComponentStatus (deprecated) reports control-plane health,
//     not a reconcile. Binding is create-only and never stored.
//   - apps: Deployment, StatefulSet, DaemonSet and ReplicaSet have rules (also in the old
//     extensions group). ControllerRevision is a stored snapshot with no status.
//   - batch: Job has a rule; CronJob is always Current: each run is a Job to wait on.
//   - autoscaling: HorizontalPodAutoscaler, through v1 and v2 alike.
//   - policy: PodDisruptionBudget is always Current: its counts describe the pods of a
//     workload, whose own rule is the one to wait on. Eviction is create-only.
//   - networking.k8s.io: Ingress has a rule. IngressClass, NetworkPolicy and IPAddress
//     have no status. ServiceCIDR is generic: the API server publishes Ready.
//   - rbac.authorization.k8s.io: Role, ClusterRole, RoleBinding and ClusterRoleBinding are
//     always Current: the authorizer reads them directly, with no controller between.
//   - storage.k8s.io: VolumeAttachment has a rule. StorageClass, CSIDriver, CSINode,
//     CSIStorageCapacity and VolumeAttributesClass have no status.
//   - admissionregistration.k8s.io: ValidatingAdmissionPolicy is generic: the API
//     server's type checker sets observedGeneration once it has checked the policy (rule
//     2), and its typeChecking warnings do not stop the policy.
//     ValidatingWebhookConfiguration, MutatingWebhookConfiguration,
//     MutatingAdmissionPolicy, ValidatingAdmissionPolicyBinding and
//     MutatingAdmissionPolicyBinding have no status: they are in force once stored.
//   - apiextensions.k8s.io: CustomResourceDefinition; apiregistration.k8s.io: APIService.
//   - certificates.k8s.io: CertificateSigningRequest and PodCertificateRequest have rules.
//     ClusterTrustBundle has no status.
//   - flowcontrol.apiserver.k8s.io: FlowSchema has a rule. PriorityLevelConfiguration
//     publishes no condition a wait could use; it is in force once stored.
//   - resource.k8s.io: DeviceTaintRule has a rule. ResourceClaim is generic: it is
//     allocated when the scheduler places a Pod that uses it, like a claim that binds on
//     first use, so a claim alone has nothing to wait for. DeviceClass,
//     ResourceClaimTemplate and ResourceSlice have no status.
//   - storagemigration.k8s.io: StorageVersionMigration.
//   - coordination.k8s.io Lease, discovery.k8s.io EndpointSlice, events.k8s.io Event,
//     node.k8s.io RuntimeClass and scheduling.k8s.io PriorityClass have no status.
//   - authentication.k8s.io and authorization.k8s.io (TokenReview, SelfSubjectReview,
//     SubjectAccessReview and the other reviews) are create-only: the answer comes back
//     in the response and nothing is stored to wait on.
//
// # Reasons callers match
//
// These Reasons, on the Result's Reconciling or Stalled condition, are kept stable for
// programs that decide what to do about a wait; other reasons may change with messages.
//
//	DeploymentPaused     Failed      Deployment paused with its rollout unfinished
//	LoadBalancerPending  InProgress  LoadBalancer Service without an address yet
//	NotObserved          InProgress  HorizontalPodAutoscaler its controller has not seen
//	JobSuspending        InProgress  Job with spec.suspend, not yet suspended
//	RuleInProgress       InProgress  a status rule's inProgress expression matched
//	RuleFailed           Failed      a status rule's failed expression matched
//	RuleNotCurrent       InProgress  a status rule with a current expression matched none
//	NoStatus             InProgress  a kind that declares a status, none reported yet
//	Suspended            Failed      suspended or paused, not asked for by the spec (rule 6e)
//	Paused               Failed      paused by the spec with work left (rule 6e)
//	Suspending           InProgress  running while the spec asks for a suspension (rule 6e)
//	HandlerRunning       InProgress  a kopf handler not finished (rule 6i)
//	HandlerRetrying      InProgress  a kopf handler retried or delayed, not finished (rule 6i)
//	HandlerFailed        Failed      a kopf handler failed for good (rule 6i)
//	NotFinished          InProgress  a kind that finishes, its run not ended (rule 6f)
//	ProgressDeadlineExceeded, Unschedulable, LatestGenerationNotObserved, and the counts
//	LessReplicas, LessUpdated, LessAvailable, LessReady, Partial, ExtraPods
//
// # Where kstatus differs from other tools, and why
//
// The rules were compared kind by kind with cli-utils' kstatus (cli: status/core.go),
// Helm's ready checker as helm --wait runs it (helm: pkg/kube/ready.go, v3), Argo CD's
// health checks (argo: gitops-engine pkg/health) and kubectl rollout status (kubectl:
// pkg/polymorphichelpers/rollout_status.go). Where they agree with kstatus, or have no
// rule and no one would expect one, they are not listed.
//
//	Kind        Peer          They say                            kstatus says, and why
//	Deployment  cli           Current needs conditions            Counts alone: both conditions follow
//	                          Available, NewReplicaSetAvailable   from the counts it already checks.
//	Deployment  helm          ready once replicas-maxUnavailable  Every replica updated and available,
//	                          new pods are ready                  no old pod left: a wait is for the
//	                                                              rollout, not for the service to be up.
//	Deployment  helm,kubectl, paused: ready (helm), waits to its  Failed, DeploymentPaused, if the
//	            argo          timeout (kubectl), Suspended (argo) rollout is unfinished: only a person
//	                                                              can resume it (see above).
//	Deployment  kubectl,argo  ReplicaFailure not read             Failed: quota or admission rejects
//	                                                              the pods; waiting will not help.
//	StatefulSet cli,helm,     OnDelete: done at once              OnDelete excuses the revision only;
//	            kubectl                                           the pods must exist and be ready
//	                                                              (as argo).
//	StatefulSet all four      ready pods are enough               Available too: with minReadySeconds
//	                                                              a ready pod has yet to prove itself.
//	DaemonSet   cli           OnDelete: waits for every pod       Not waited for: OnDelete pods change
//	                          to be updated                       only when deleted (as kubectl, argo).
//	DaemonSet   helm,kubectl, OnDelete: done, pods not looked at  Pods still scheduled, available and
//	            argo                                              ready: the controller does that much.
//	DaemonSet   helm          rolling: desired-maxUnavailable     Every pod updated, available and
//	                          pods ready                          ready.
//	ReplicaSet, cli           ReplicaFailure is InProgress        Failed, as for Deployment.
//	RC          helm          lists the Pods by selector          The controller's counts: kstatus
//	                                                              reads one object, never a list.
//	Pod         cli           phase Failed is Current             Failed: no one waits for a failure.
//	Pod         helm          ready only with Ready True: a       Succeeded is Current: it did what it
//	                          completed Pod never is              was for (a one-off Pod, a test).
//	Pod         argo          any Err*, *Error, *BackOff waiting  A fixed list of reasons that need a
//	                          reason, or a restart, is Degraded   change to clear; others may clear.
//	Pod         cli           unschedulable window counted from   From PodScheduled's transition time:
//	                          creationTimestamp                   an old pod that just became
//	                                                              unschedulable gets the window too.
//	Job         cli           running: Current                    InProgress until Complete: the wait
//	                                                              is for the migration to be done.
//	Job         helm          no completions: ready at once;      The Complete and Failed conditions,
//	                          failed if failed > backoffLimit     which every policy sets (podFailure-
//	                                                              Policy, successPolicy, per index).
//	Job         cli, argo     a Suspended condition ends the      Current only with spec.suspend and
//	                          wait (argo: of any status)          Suspended True: asked for and done.
//	Job         cli, argo     Failed only once the Failed         Failed at FailureTarget (1.31+): the
//	                          condition is set                    end is decided; the pods' grace
//	                                                              period need not be sat out.
//	HPA         argo          Degraded for four reasons only;     Any AbleToScale or ScalingActive
//	                          Healthy once AbleToScale is True    False is Failed (ScalingDisabled
//	                                                              aside): it cannot do its job.
//	HPA         cli, helm     no rule: Current at once            Reads v2 conditions or v1's
//	                                                              annotation, and an empty status is
//	                                                              InProgress, NotObserved (as argo).
//	PVC         cli           Lost is InProgress                  Failed: nothing rebinds a lost claim.
//	Service     cli           LoadBalancer waits for a cluster    Waits for the load balancer's
//	                          IP only (always set)                address, as helm and argo do.
//	Service     helm          LoadBalancer with externalIPs is    Waits for the address: externalIPs
//	                          ready                               are not the load balancer asked for;
//	                                                              match LoadBalancerPending to skip it.
//	CRD         cli           Established False (reason not       InProgress until Established; Failed
//	                          Installing) is Failed               for NamesAccepted False and for
//	                                                              Established False InvalidCABundle.
//	CRD         helm          NamesAccepted False is ready        Failed: the resource is not served.
//	Ingress     cli, helm     no rule: Current                    Waits for an address, as argo.
//	Namespace   cli,helm,argo no rule                             Terminating by status.phase too.
//	PV, quota,  all four      no rule: Current at once            Rules: each has a controller that
//	CSR, ...                                                      must act first (see Kinds).
//
// # Limits
//
// Some states cannot be told apart from the object alone. Do not expect Compute to:
//   - wait for a custom resource whose controller has not acted yet (no status at all),
//     unless it is given the kind's definition (rule 6g), or that sets Ready only once it
//     is True: nothing in it says there is anything to wait for, so rule 6 says Current.
//     Controllers should publish observedGeneration and Ready False (or Reconciling True)
//     while they work; MarkReconciling does both. A status rule can say otherwise for
//     kinds that do not: the library's do for theirs.
//   - tell whether Running means done for a kind nothing marks as one that finishes
//     (rule 6c assumes it is a service), or read a state word it does not know (SPLIT_BRAIN):
//     the message names such a word.
//   - know an operator's own meaning for a shared word: Longhorn's robustness degraded
//     heals by itself, but Degraded is a failure in Argo CD's vocabulary, which inference
//     follows; a Metal3 host at rest reports Ready False. A status rule says otherwise.
//   - see through to other objects: a Deployment is judged by its own counts, a Service
//     by its own load balancer status, not by its Pods or Endpoints.
//   - finish a wait on an Ingress whose controller never publishes an address, on a
//     LoadBalancer Service in a cluster with no load-balancer controller (kind, minikube,
//     most CI clusters; reason LoadBalancerPending says so), or on a claim whose storage
//     class binds on first use and that no Pod uses yet: all stay InProgress.
//   - tell a Job suspended by a person from one suspended until a queue admits it
//     (Kueue creates Jobs suspended and resumes them): once the controller has
//     suspended it, either is Current. A caller that needs a queued Job's work done
//     must wait for its Complete condition itself.
//
// # Messages
//
// A Result's Message is for a person deciding what to do. For InProgress it names the
// first count that is short as have/want ("Available: 1/3", "Updated: 2/4"); for Failed
// it quotes the controller's reason and message ("Progress deadline exceeded: ReplicaSet
// "web-5d9c7b8f4" has timed out progressing.", "Container web: CrashLoopBackOff: ...").
// Messages do not repeat the object's kind and name (except where the sentence needs the
// kind, as in rule 2's): every caller that shows a Result shows the object beside it. Do
// not match on messages; they may be improved. Match on Status, or on the Reason of the
// Result's condition.
//
// # Writing conditions
//
// Augment writes a computed status into an object as the standard conditions, for tools
// that read only those. Controller authors use SetCondition, RemoveCondition,
// MarkReconciling, MarkStalled and MarkReady, on typed objects (through the Object
// interface) or unstructured ones (through Unstructured). They apply the API conventions
// that hand-written helpers often miss: lastTransitionTime moves only when a status
// flips, observedGeneration is stamped from metadata.generation, and Reconciling,
// Stalled and Ready never contradict one another.
//
// # Cost
//
// Compute runs once per watched object per change, beside the decode of that object, so
// it is built to cost a small fraction of the decode: it walks the decoded maps in place,
// copies nothing, and formats a message only when the status is not Current. A Current
// Deployment costs one allocation, the Result. The one rule that reads JSON text, the
// conditions autoscaling/v1 keeps in an annotation, scans it in place rather than
// decoding it. BenchmarkCompute and BenchmarkDecodeBaseline measure both. A status rule
// costs more: CEL wraps each value it reads, and the library's Flux rule (three passes
// over the conditions and a message) costs about half a decode (BenchmarkComputeRule).
// Kinds without a status rule pay one map lookup for the library. Inference (rule 6) reads
// every condition and state field of status: on the objects of testdata/kstatus/unruled it
// costs about 3 µs an object, 0.16 of decoding them (BenchmarkComputeUnruled against
// BenchmarkDecodeUnruled), and allocates nothing more than the messages it builds.
package kstatus
