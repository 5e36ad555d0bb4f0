package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"titm/mail"
	"titm/store"
)

// healthEvery is how often the daemon logs its health.
const healthEvery = time.Hour

// upkeep runs the daemon's chores beside the mail until ctx ends: a line
// of health in the log every hour, and the backups [backup] asks for. The
// returned function waits for them to end.
func upkeep(ctx context.Context, cfg *Config, st *store.Store, status func() (*mail.Status, error), log *slog.Logger) (wait func()) {
	var wg sync.WaitGroup
	wg.Go(func() {
		every(ctx, healthEvery, func() { logHealth(status, log) })
	})
	if b := cfg.Backup; b.Dir != "" {
		log.Info("backups", "dir", b.Dir, "every", b.Every, "keep", b.Keep)
		wg.Go(func() {
			// The schedule goes by the backups already written, not by the
			// start: a daemon restarted more often than every interval
			// would otherwise never write one.
			next := nextBackup(b.Dir, b.Every, time.Now())
			for {
				t := time.NewTimer(time.Until(next))
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-t.C:
				}
				now := time.Now()
				if _, err := backupInto(st, b.Dir, b.Keep, now, log); err != nil {
					log.Error("backup failed", "dir", b.Dir, "err", err)
				}
				next = now.Add(b.Every)
			}
		})
	}
	return wg.Wait
}

// every calls f each interval until ctx ends.
func every(ctx context.Context, interval time.Duration, f func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// logHealth writes the status in one line: a warning when unhealthy.
func logHealth(status func() (*mail.Status, error), log *slog.Logger) {
	s, err := status()
	if err != nil {
		log.Error("health", "err", err)
		return
	}
	level := slog.LevelInfo
	if !s.Healthy {
		level = slog.LevelWarn
	}
	log.Log(context.Background(), level, "health", s.LogAttrs()...)
}

// backupPrefix and backupSuffix frame the backups' names, which sort in
// the order they were written: titm-20261216T053000Z.db.
const (
	backupPrefix = "titm-"
	backupSuffix = ".db"
	backupTime   = "20060102T150405Z"
)

// nextBackup is when the next backup into dir is due: an interval after
// the newest one there, by the time in its name; now if there is none or
// it is older than that.
func nextBackup(dir string, interval time.Duration, now time.Time) time.Time {
	names := backupsIn(dir)
	if len(names) == 0 {
		return now
	}
	newest := names[len(names)-1]
	at, err := time.Parse(backupTime, strings.TrimSuffix(strings.TrimPrefix(newest, backupPrefix), backupSuffix))
	if err != nil || at.After(now) {
		// A name not of ours, or a clock set back: go by the start.
		return now
	}
	return at.Add(interval)
}

// backupsIn lists the names of the backups in dir, the oldest first.
func backupsIn(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if name := e.Name(); e.Type().IsRegular() && strings.HasPrefix(name, backupPrefix) && strings.HasSuffix(name, backupSuffix) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// backupInto writes a backup into dir, checks it, and deletes the oldest
// backups beyond keep. A backup that does not check is kept, for the
// operator to look at, and nothing is deleted.
func backupInto(st *store.Store, dir string, keep int, now time.Time, log *slog.Logger) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, backupPrefix+now.UTC().Format(backupTime)+backupSuffix)
	start := time.Now()
	n, err := st.Backup(path)
	if err != nil {
		return "", err
	}
	took := time.Since(start)
	r, err := CheckFile(path)
	if err != nil {
		return "", fmt.Errorf("the backup %s does not open: %w", path, err)
	}
	if !r.OK() {
		return "", fmt.Errorf("the backup %s has %d problem(s), the first: %s; run titm check-store", path, len(r.Problems), r.Problems[0])
	}
	log.Info("backup written", "path", path, "bytes", n, "took", took, "games", r.Games)
	old := backupsIn(dir)
	for _, name := range old[:max(0, len(old)-keep)] {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return path, err
		}
		log.Info("old backup deleted", "path", filepath.Join(dir, name))
	}
	return path, nil
}

// CheckFile opens a store file read-only, a backup, and checks it
// (store.Check).
func CheckFile(path string) (*store.CheckReport, error) {
	st, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return st.Check()
}
