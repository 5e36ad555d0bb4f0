package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"titm/internal/daemon"
	"titm/mail"
	"titm/store"
)

// The operator's commands keep the store for years: a backup while the
// daemon runs, a check of every game and mail, a compaction, and the
// daemon's health. Each goes through the control socket when a daemon
// holds the store, as the game commands do.

// opsResult is what an operator's request gives.
type opsResult struct {
	Bytes  int64              `json:"bytes,omitempty"`  // backup: the copy's size
	Before int64              `json:"before,omitempty"` // compact: the sizes
	After  int64              `json:"after,omitempty"`
	Check  *store.CheckReport `json:"check,omitempty"`
	Status *mail.Status       `json:"status,omitempty"`
}

// ops are the operator's requests.
var ops = map[string]viewFunc{
	"backup":        opBackup,
	"check-store":   opCheck,
	"compact":       opCompact,
	"migrate-store": opMigrate,
	"status":        opStatus,
}

// opMigrate has nothing to do: opening the store migrated it, here or in
// the daemon.
func opMigrate(*host, request) (*response, error) { return &response{Ops: &opsResult{}}, nil }

// opBackup writes a backup to the absolute path in req.Text.
func opBackup(h *host, req request) (*response, error) {
	if !filepath.IsAbs(req.Text) {
		return nil, fmt.Errorf("backup: %q is not an absolute path", req.Text)
	}
	n, err := h.st.Backup(req.Text)
	if err != nil {
		return nil, err
	}
	return &response{Ops: &opsResult{Bytes: n}}, nil
}

func opCheck(h *host, _ request) (*response, error) {
	r, err := h.st.Check()
	if err != nil {
		return nil, err
	}
	return &response{Ops: &opsResult{Check: r}}, nil
}

// opCompact compacts the store; in the daemon, mail handling waits
// meanwhile.
func opCompact(h *host, _ request) (*response, error) {
	before, after, err := h.st.Compact()
	if err != nil {
		return nil, err
	}
	return &response{Ops: &opsResult{Before: before, After: after}}, nil
}

// opStatus is the daemon's status, or the store's alone outside it.
func opStatus(h *host, _ request) (*response, error) {
	var s *mail.Status
	var err error
	if h.status != nil {
		s, err = h.status()
	} else {
		s, err = storeStatus(h.st, h.now())
	}
	if err != nil {
		return nil, err
	}
	return &response{Ops: &opsResult{Status: s}}, nil
}

// storeStatus is the status of a store no daemon holds: what it holds,
// and, as the daemon does at its start, the check of its pages, sums and
// records (store.Verify), whose problems make it unhealthy.
func storeStatus(st *store.Store, now time.Time) (*mail.Status, error) {
	s, err := mail.StoreStatus(st, giveUpDefault, now)
	var de *store.DamageError
	if errors.As(err, &de) {
		s, err = &mail.Status{Now: now}, nil
		s.Bytes, _ = st.Size()
		for _, p := range de.Problems {
			s.Problems = append(s.Problems, "the store is damaged: "+p.String())
		}
	}
	if err != nil {
		return nil, err
	}
	r, err := st.Verify()
	if err != nil {
		return nil, err
	}
	for _, p := range r.Problems {
		if !slices.Contains(s.Problems, "the store is damaged: "+p.String()) {
			s.Problems = append(s.Problems, "the store is damaged: "+p.String())
		}
	}
	if len(s.Problems) > 0 {
		s.Healthy = false
		s.Problems = append(s.Problems, "run titm check-store, and see docs/operating.md, \"A damaged store\"")
	}
	return s, nil
}

var migrateStoreCmd = &command{
	name:    "migrate-store",
	summary: "migrate the store to this titm's schema, as serve does at its start (keep a backup of it first)",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			if _, err := os.Stat(sf.db); err != nil {
				return fmt.Errorf("no store at %s", sf.db)
			}
			if _, err := c.do(sf, request{Act: "migrate-store"}, true); err != nil {
				return err
			}
			fmt.Fprintf(c.out, "%s: schema version %d\n", sf.db, store.Version)
			return nil
		}
	},
}

// giveUpDefault is smtp.give_up as the example configuration has it, for
// the status of a store without its daemon.
const giveUpDefault = 72 * time.Hour

var backupCmd = &command{
	name:    "backup",
	args:    "FILE",
	summary: "write a consistent copy of the store to FILE, while serve runs or not, and check the copy",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		return func(args []string) error {
			if len(args) != 1 {
				return usageError{"give the file to write the backup to"}
			}
			path, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			resp, err := c.do(sf, request{Act: "backup", Text: path}, false)
			if err != nil {
				return err
			}
			r, err := daemon.CheckFile(path)
			if err != nil {
				return fmt.Errorf("the backup %s was written but does not open: %w", path, err)
			}
			if !r.OK() {
				printProblems(c.out, r)
				fmt.Fprintf(c.out, "the backup %s was written, but its check found %d problem(s): it is no good as it is; run titm check-store on the store\n", path, len(r.Problems))
				return errProblems
			}
			fmt.Fprintf(c.out, "backup %s: %s, checked: %s\n", path, bytesText(resp.Ops.Bytes), summary(r))
			return nil
		}
	},
}

var checkStoreCmd = &command{
	name:    "check-store",
	args:    "[FILE]",
	summary: "check every game's log chain and position, the processed messages and the outbox of the store, or of a backup FILE",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		asJSON := fs.Bool("json", false, "print the report as JSON")
		return func(args []string) error {
			switch len(args) {
			case 0:
			case 1:
				// FILE is a store like --db's: a backup is opened here, a
				// store a daemon holds is checked by the daemon.
				if _, err := os.Stat(args[0]); err != nil {
					return err
				}
				sf.db, sf.socket = args[0], ""
			default:
				return usageError{"give at most one file"}
			}
			resp, err := c.do(sf, request{Act: "check-store"}, false)
			if err != nil {
				return err
			}
			r, name := resp.Ops.Check, sf.db
			if *asJSON {
				if err := printJSON(c.out, r); err != nil {
					return err
				}
			} else {
				printProblems(c.out, r)
				fmt.Fprintf(c.out, "%s: %s\n", name, summary(r))
			}
			if !r.OK() {
				return errProblems
			}
			return nil
		}
	},
}

func printProblems(w io.Writer, r *store.CheckReport) {
	for _, p := range r.Problems {
		fmt.Fprintln(w, p)
	}
}

// summary is a check's report in a line.
func summary(r *store.CheckReport) string {
	s := fmt.Sprintf("schema version %d; %d game(s), %d log record(s), %d replayed to their position; %d processed message(s); %d mail(s), %d queued",
		r.Version, r.Games, r.Records, r.Replayed, r.Processed, r.Mails, r.Queued)
	if r.OK() {
		return s + ": no problems"
	}
	return s + fmt.Sprintf(": %d PROBLEM(S)", len(r.Problems))
}

var compactCmd = &command{
	name:    "compact",
	summary: "rewrite the store into a fresh file without its free space, and swap it in (a running serve pauses its mail meanwhile)",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			if _, err := os.Stat(sf.db); errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("no store at %s", sf.db)
			}
			start := time.Now()
			resp, err := c.do(sf, request{Act: "compact"}, true)
			if err != nil {
				return err
			}
			o := resp.Ops
			fmt.Fprintf(c.out, "compacted %s: %s before, %s after, in %s\n", sf.db, bytesText(o.Before), bytesText(o.After), time.Since(start).Round(time.Millisecond))
			return nil
		}
	},
}

var statusCmd = &command{
	name:    "status",
	summary: "the daemon's health: up since, IMAP, last mail, the outbox, failures, deadlines today, the store's size",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		sf := addStoreFlags(fs)
		asJSON := fs.Bool("json", false, "print the status as JSON, as /health serves it")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			resp, err := c.do(sf, request{Act: "status"}, false)
			if err != nil {
				return err
			}
			s := resp.Ops.Status
			if *asJSON {
				err = printJSON(c.out, s)
			} else {
				printStatus(c.out, s)
			}
			if err == nil && !s.Healthy {
				return errProblems
			}
			return err
		}
	},
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printStatus prints a status for a person, one line a subject.
func printStatus(w io.Writer, s *mail.Status) {
	at := func(t time.Time) string {
		return fmt.Sprintf("%s (%s ago)", t.Format("2006-01-02 15:04:05 MST"), s.Now.Sub(t).Round(time.Second))
	}
	line := func(k, v string) { fmt.Fprintf(w, "%-14s %s\n", k+":", v) }
	if !s.Running {
		line("daemon", "not running: what follows is the store's alone")
	} else {
		line("daemon", "running since "+at(s.Since))
		if s.IMAP.Connected {
			line("IMAP", "connected since "+at(s.IMAP.Since))
		} else {
			line("IMAP", "NOT connected, since "+at(s.IMAP.Since))
		}
		if s.IMAP.LastError != "" {
			line("IMAP error", "at "+at(s.IMAP.ErrorAt)+": "+s.IMAP.LastError)
		}
		if s.LastMail.IsZero() {
			line("last mail", "none handled since the start")
		} else {
			line("last mail", "handled at "+at(s.LastMail))
		}
	}
	if s.Queued == 0 {
		line("outbox", "empty")
	} else {
		line("outbox", fmt.Sprintf("%d mail(s) queued, the oldest at %s", s.Queued, at(s.Oldest)))
	}
	line("failed mails", fmt.Sprintf("%d in the last 24 hours", s.Failed))
	line("deadlines", fmt.Sprintf("%d game(s) due before the end of the day", s.DueToday))
	line("store", fmt.Sprintf("%d game(s), %s", s.Games, bytesText(s.Bytes)))
	if s.Healthy {
		line("health", "good")
	}
	for _, p := range s.Problems {
		line("PROBLEM", p)
	}
}

// bytesText writes a size for a person.
func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
