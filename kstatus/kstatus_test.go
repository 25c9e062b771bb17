package kstatus_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kates-dev/kates/kstatus"
)

func TestParseStatus(t *testing.T) {
	all := kstatus.Statuses()
	if len(all) != 6 {
		t.Fatalf("Statuses() = %v, want all six", all)
	}
	for _, s := range all {
		for _, in := range []string{string(s), strings.ToLower(string(s))} {
			got, err := kstatus.ParseStatus(in)
			if err != nil || got != s {
				t.Errorf("ParseStatus(%q) = %q, %v; want %q", in, got, err, s)
			}
		}
	}
	if _, err := kstatus.ParseStatus("Done"); err == nil {
		t.Errorf("ParseStatus(Done) error = nil")
	}
	all[0] = "Changed"
	if kstatus.Statuses()[0] != kstatus.InProgressStatus {
		t.Errorf("changing the slice Statuses returned changed the next one")
	}
}

func TestAggregate(t *testing.T) {
	const (
		cur  = kstatus.CurrentStatus
		inp  = kstatus.InProgressStatus
		fail = kstatus.FailedStatus
		unk  = kstatus.UnknownStatus
		nf   = kstatus.NotFoundStatus
		term = kstatus.TerminatingStatus
	)
	tests := []struct {
		name     string
		statuses []kstatus.Status
		desired  kstatus.Status
		want     kstatus.Status
	}{
		{"empty is desired", nil, cur, cur},
		{"all desired", []kstatus.Status{cur, cur}, cur, cur},
		{"one in progress", []kstatus.Status{cur, inp}, cur, inp},
		{"failed wins over unknown", []kstatus.Status{unk, fail, cur}, cur, fail},
		{"unknown wins over in progress", []kstatus.Status{inp, unk}, cur, unk},
		{"waiting for deletion", []kstatus.Status{nf, term}, nf, inp},
		{"all deleted", []kstatus.Status{nf, nf}, nf, nf},
		{"terminating is not current", []kstatus.Status{cur, term}, cur, inp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, kstatus.Aggregate(tt.statuses, tt.desired)); diff != "" {
				t.Errorf("Aggregate() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
