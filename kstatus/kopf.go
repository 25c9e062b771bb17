package kstatus

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Operators written with kopf, the Python operator framework, record the progress of each
// handler on the object itself: in status.kopf.progress.<handler id>, or in an annotation
// <prefix>/<handler id> (kopf.zalando.org by default; an operator may choose its own, as
// Twingate's twingate.com) whose value is the same record as JSON. kopf deletes every record
// once all the handlers of a change have finished, succeeded or failed for good, so a
// record still there whose handler has not succeeded is work not done: a handler running
// or waiting to retry (TemporaryError, a 503 from an API it calls). A handler that failed
// for good (PermanentError, or its retries or timeout spent) is marked failure: the change
// it handled will not be made until someone changes the object.

// kopfRecord is the part of a kopf handler's progress record inference reads.
type kopfRecord struct {
	Started string `json:"started"`
	Delayed string `json:"delayed"`
	Purpose string `json:"purpose"`
	Retries int64  `json:"retries"`
	Success bool   `json:"success"`
	Failure bool   `json:"failure"`
	Message string `json:"message"`
}

// kopfRecordPrefix starts the JSON kopf writes for a record in an annotation: its keys in
// the order kopf writes them, started first.
const kopfRecordPrefix = `{"started":`

// kopfHandling reads the handlers' progress records of a kopf operator in an object's
// metadata and status, and returns the verdict they give: Failed for a handler failed for
// good, InProgress for one not finished; found is false when no record says either. Of
// several, a failure is reported first, then the first handler by id.
func kopfHandling(meta, status map[string]any, tr *trace) (v verdict, found bool) {
	annotations, _ := meta["annotations"].(map[string]any)
	if status["kopf"] == nil && !anyKopfAnnotation(annotations) {
		return verdict{}, false // (the common case, without allocating)
	}
	var ids []string
	records := map[string]kopfRecord{}
	take := func(id string, rec kopfRecord) {
		if rec.Success || rec.Started == "" {
			return
		}
		if _, dup := records[id]; !dup {
			ids = append(ids, id)
		}
		records[id] = rec
	}
	if k, _ := status["kopf"].(map[string]any); k != nil {
		progress, _ := k["progress"].(map[string]any)
		for id, r := range progress {
			e, _ := r.(map[string]any)
			if e == nil {
				continue
			}
			var rec kopfRecord
			rec.Started, _ = e["started"].(string)
			rec.Delayed, _ = e["delayed"].(string)
			rec.Purpose, _ = e["purpose"].(string)
			rec.Retries, _ = toInt(e["retries"])
			rec.Success, _ = e["success"].(bool)
			rec.Failure, _ = e["failure"].(bool)
			rec.Message, _ = e["message"].(string)
			take(id, rec)
		}
	}
	for k, a := range annotations {
		s, _ := a.(string)
		if !strings.HasPrefix(s, kopfRecordPrefix) {
			continue
		}
		var rec kopfRecord
		if json.Unmarshal([]byte(s), &rec) != nil {
			continue
		}
		take(k[strings.LastIndexByte(k, '/')+1:], rec)
	}
	if len(ids) == 0 {
		return verdict{}, false
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := records[ids[i]], records[ids[j]]
		if a.Failure != b.Failure {
			return a.Failure
		}
		return ids[i] < ids[j]
	})
	id := ids[0]
	rec := records[id]
	if tr != nil {
		tr.note("kopf handler "+id, rec.Purpose)
	}
	text := strings.Join(strings.Fields(rec.Message), " ")
	if rec.Failure {
		msg := "kopf handler " + id + " failed for good"
		if text != "" {
			msg += ": " + text
		}
		return verdict{status: FailedStatus, reason: "HandlerFailed", message: msg, by: "infer:kopf"}, true
	}
	msg := "kopf handler " + id + " has not finished"
	reason := "HandlerRunning"
	if rec.Retries > 0 || rec.Delayed != "" {
		reason = "HandlerRetrying"
		msg += " (retry " + strconv.FormatInt(rec.Retries, 10) + ")"
	}
	if text != "" {
		msg += ": " + text
	}
	return verdict{status: InProgressStatus, reason: reason, message: msg, by: "infer:kopf"}, true
}

// anyKopfAnnotation reports an annotation whose value looks like a kopf progress record.
func anyKopfAnnotation(annotations map[string]any) bool {
	for _, a := range annotations {
		if s, _ := a.(string); strings.HasPrefix(s, kopfRecordPrefix) {
			return true
		}
	}
	return false
}
