package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the store to path while it stays in
// use: the copy is the store as one read transaction sees it, so every
// change is in it whole or not at all, and writers go on meanwhile. The
// copy is written beside path first and renamed over it once synced, so
// that path never holds half a copy; it is readable by its owner only, as
// the store is. It returns the copy's size.
func (s *Store) Backup(path string) (int64, error) {
	if same(path, s.path) {
		return 0, fmt.Errorf("store: backup: %s is the store itself", path)
	}
	tmp := path + ".part"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	defer os.Remove(tmp) // after the rename, nothing is there
	// A leftover .part of another owner keeps its mode through O_TRUNC.
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	var n int64
	err = s.View(func(tx *Tx) error {
		var err error
		n, err = tx.tx.WriteTo(f)
		return err
	})
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		return 0, fmt.Errorf("store: backup to %s: %w", path, err)
	}
	return n, nil
}

// same reports whether two paths name the same file.
func same(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Size returns the size of the store's file in bytes, free pages
// included: what it takes on the disk.
func (s *Store) Size() (int64, error) {
	s.gate.RLock() // not in the middle of Compact's swap
	defer s.gate.RUnlock()
	fi, err := os.Stat(s.path)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return fi.Size(), nil
}

// Compact rewrites the store into a fresh file, without the free pages a
// bbolt file keeps for ever, and puts it in the old one's place. Writers
// wait while it copies and everyone while it swaps the files, so a daemon
// holding the store only pauses; a crash at any moment leaves either the
// old file or the new one at the store's path, whole. It returns the sizes
// before and after.
func (s *Store) Compact() (before, after int64, err error) {
	if s.opts.ReadOnly {
		return 0, 0, fmt.Errorf("store: compacting %s: opened read-only", s.path)
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if fi, err := os.Stat(s.path); err == nil {
		before = fi.Size()
	}
	tmp := s.path + ".compact"
	os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: s.opts.Timeout})
	if err != nil {
		return 0, 0, fmt.Errorf("store: compacting %s: %w", s.path, err)
	}
	// Compact commits every 64 MiB copied, so that a large store does not
	// take its whole size in memory at once; each commit is synced.
	if err := s.compactInto(dst); err != nil {
		dst.Close()
		os.Remove(tmp)
		return 0, 0, fmt.Errorf("store: compacting %s: %w", s.path, err)
	}
	if err := dst.Close(); err != nil {
		os.Remove(tmp)
		return 0, 0, fmt.Errorf("store: compacting %s: %w", s.path, err)
	}
	if fi, err := os.Stat(tmp); err == nil {
		after = fi.Size()
	}

	s.gate.Lock()
	defer s.gate.Unlock()
	// The copy is opened, and so locked, before it takes the store's name,
	// and the old file is closed only after: at no moment is the file at
	// the store's path unlocked, so a command that opens it meanwhile
	// finds it held and goes through the daemon's socket, never writing to
	// a file about to be replaced.
	db, err := bolt.Open(tmp, 0o600, s.opts)
	if err != nil {
		os.Remove(tmp)
		return 0, 0, fmt.Errorf("store: compacting %s: opening the copy: %w", s.path, err)
	}
	if err := os.Rename(tmp, s.path); err != nil {
		db.Close()
		os.Remove(tmp)
		return 0, 0, fmt.Errorf("store: compacting %s: putting the copy in place: %w", s.path, err)
	}
	if err := syncDir(filepath.Dir(s.path)); err != nil {
		// The copy is in place and open; only the rename's durability is
		// in doubt, and the next sync of the folder settles it.
		s.db.Close()
		s.db, s.files = db, s.files+1
		return 0, 0, fmt.Errorf("store: compacting %s: syncing its folder: %w", s.path, err)
	}
	if err := s.db.Close(); err != nil {
		s.db, s.files = db, s.files+1
		return 0, 0, fmt.Errorf("store: compacting %s: closing the old file: %w", s.path, err)
	}
	s.db, s.files = db, s.files+1
	return before, after, nil
}

// compactInto copies the store into dst; damage bbolt panics on is a
// *DamageError.
func (s *Store) compactInto(dst *bolt.DB) (err error) {
	defer onFault()()
	defer s.guard(&err)
	return bolt.Compact(dst, s.db, 64<<20)
}

// FailedSince counts the mails of the outbox that failed for good since a
// time. A mail's record has no time of failure: one counts when it was
// queued or last tried again since then. The outbox is read from its
// newest mail back to the first queued before horizon, which the caller
// sets as far back as a mail can be retried (smtp.give_up), so that a
// store of years is not read whole.
func (t *Tx) FailedSince(since, horizon time.Time) (int, error) {
	var n int
	c := t.tx.Bucket(bucketOutbox).Cursor()
	for k, v := c.Last(); k != nil; k, v = c.Prev() {
		var m Mail
		if err := json.Unmarshal(v, &m); err != nil {
			return 0, fmt.Errorf("store: mail %x: %w", k, err)
		}
		if m.Created.Before(horizon) {
			break
		}
		if m.Status == MailFailed && (!m.Created.Before(since) || !m.Next.Before(since)) {
			n++
		}
	}
	return n, nil
}
