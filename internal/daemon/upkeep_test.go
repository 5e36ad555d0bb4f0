package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"titm/mail"
	"titm/store"
)

// The daemon writes the backups [backup] asks for and keeps the newest.
func TestBackupInto(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "titm.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := filepath.Join(t.TempDir(), "backups")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	t0 := time.Date(2026, 12, 16, 5, 30, 0, 0, time.UTC)
	for i := range 5 {
		if _, err := backupInto(st, dir, 3, t0.Add(time.Duration(i)*time.Hour), log); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"titm-20261216T073000Z.db", "titm-20261216T083000Z.db", "titm-20261216T093000Z.db"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("the backups kept: %q, want %q", names, want)
	}
}

// The hourly health line carries the status's figures, at WARN when
// unhealthy.
func TestLogHealth(t *testing.T) {
	now := time.Date(2026, 12, 16, 12, 0, 0, 0, time.UTC)
	for _, healthy := range []bool{true, false} {
		s := &mail.Status{Now: now, Running: true, Since: now.Add(-time.Hour), Queued: 2, Oldest: now.Add(-90 * time.Minute),
			Failed: 1, DueToday: 3, Games: 9, Bytes: 1 << 20, Healthy: healthy}
		if !healthy {
			s.Problems = []string{"the outbox is stuck"}
		}
		var b bytes.Buffer
		logHealth(func() (*mail.Status, error) { return s, nil }, slog.New(slog.NewJSONHandler(&b, nil)))
		var line map[string]any
		if err := json.Unmarshal(b.Bytes(), &line); err != nil {
			t.Fatalf("%v: %s", err, b.String())
		}
		level := "INFO"
		if !healthy {
			level = "WARN"
		}
		if line["msg"] != "health" || line["level"] != level || line["queued"] != 2.0 || line["oldest_queued_age"] == nil ||
			line["failed_last_day"] != 1.0 || line["deadlines_today"] != 3.0 || line["store_bytes"] != float64(1<<20) || line["imap_connected"] != false {
			t.Errorf("healthy %v: %s", healthy, b.String())
		}
	}
}

// The daemon's next backup is due an interval after the newest in its
// folder, so that restarts do not put it off for ever; at once when there
// is none, or it is due already.
func TestNextBackup(t *testing.T) {
	now := time.Date(2026, 12, 16, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		files []string
		want  time.Time
	}{
		{"no backup yet", nil, now},
		{"newest 3 hours old", []string{"titm-20261215T090000Z.db", "titm-20261216T090000Z.db"}, now.Add(21 * time.Hour)},
		{"newest a day and more old", []string{"titm-20261215T090000Z.db"}, now.Add(-3 * time.Hour)},
		{"other files ignored", []string{"titm-20261216T090000Z.db", "titm-notes.txt", "other-20261216T110000Z.db"}, now.Add(21 * time.Hour)},
		{"a name of the future: the clock went back", []string{"titm-20261217T090000Z.db"}, now},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range c.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if got := nextBackup(dir, 24*time.Hour, now); !got.Equal(c.want) {
				t.Errorf("next backup at %s, want %s", got, c.want)
			}
		})
	}
}
