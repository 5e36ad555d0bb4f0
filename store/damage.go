package store

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// ErrDamaged is the error of a store whose file is damaged: cut short,
// a page or a record changed. Every *DamageError is one (errors.Is).
var ErrDamaged = errors.New("the store is damaged")

// A DamageError says what of the store is damaged and what to do.
type DamageError struct {
	Path     string    // the store's file
	Problems []Problem // what is damaged, where
	// Backups is the folder the daemon writes its backups into ("" when
	// not known), for the advice.
	Backups string
}

func (e *DamageError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the store %s is damaged: ", e.Path)
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		if i == 5 {
			fmt.Fprintf(&b, "and %d more", len(e.Problems)-i)
			break
		}
		b.WriteString(p.String())
	}
	b.WriteString(". ")
	b.WriteString(advice(e.Backups))
	return b.String()
}

// Is makes a DamageError ErrDamaged.
func (e *DamageError) Is(target error) bool { return target == ErrDamaged }

// advice is what to do with a damaged store.
func advice(backups string) string {
	where := "the latest backup (the folder [backup] dir of the configuration, or the copies titm backup wrote)"
	if backups != "" {
		where = "the latest backup from " + backups
	}
	return "Stop titm serve, keep the damaged file aside, restore " + where +
		" in its place after checking it with titm check-store FILE; docs/operating.md says how"
}

// preflight checks the file before bbolt maps it: not empty, as long as
// its meta page says, and readable by its owner alone (a copy put in
// place with a looser mode is made 0600, and the log says so). It returns
// whether the file exists.
func preflight(path string, opt *Options, log *slog.Logger) (bool, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) && !opt.ReadOnly {
		return false, nil // bbolt makes it
	}
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return true, fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() == 0 {
		return true, &DamageError{Path: path, Backups: opt.Backups, Problems: []Problem{{Where: "file",
			What: "it is empty (0 bytes): it holds no store (a file made by hand, or one cut to nothing); if no store was meant to be there yet, delete it and titm makes a new one"}}}
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		// A store holds the players' addresses and the games' secret
		// seeds; a copy put in place by hand often comes with 0644.
		if err := os.Chmod(path, 0o600); err != nil {
			log.Warn("store: the file is readable by others, and its mode cannot be changed", "path", path, "mode", fmt.Sprintf("%#o", perm), "err", err)
		} else {
			log.Warn("store: the file was readable by others; its mode is now 0600", "path", path, "was", fmt.Sprintf("%#o", perm))
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return true, err
	}
	defer f.Close()
	metas, bad := readMetas(f, fi.Size())
	m := latest(metas)
	if m == nil {
		// Not a bbolt file at all, or both meta pages gone: bbolt's own
		// message says which.
		return true, nil
	}
	for i, err := range bad {
		if err != nil {
			log.Warn("store: a meta page is damaged; the other is used, as bbolt does", "path", path, "page", i, "problem", err.Error(), "txid", m.txid)
		}
	}
	if p, short := cutShort(fi.Size(), m); short {
		return true, &DamageError{Path: path, Backups: opt.Backups, Problems: []Problem{p}}
	}
	// bbolt reads the freelist when it opens a file for writing, and
	// believes the count it says: a damaged one makes it allocate
	// terabytes.
	if m.freelist != noFreelist {
		w := &pageWalker{f: f, meta: m, used: make([]uint8, m.pgid)}
		if w.freelist(m.freelist); len(w.probs) > 0 {
			return true, &DamageError{Path: path, Backups: opt.Backups, Problems: w.probs}
		}
	}
	return true, nil
}

// guard turns a panic of bbolt, or a fault reading its memory map, into a
// *DamageError: bbolt asserts what it reads from the file, and damage it
// did not expect panics. Any other panic goes on: it is a bug, not damage.
// Deferred by View and Update, around everything they run.
func (s *Store) guard(err *error) {
	if r := recover(); r != nil {
		damaged(r, s.path, s.backups, s.log, err)
	}
}

// damaged makes a panic recovered from bbolt the *DamageError of the file
// at path, and panics again with any other.
func damaged(r any, path, backups string, log *slog.Logger, err *error) {
	if !fromBolt() {
		panic(r)
	}
	// What bbolt says is seldom where the damage is: the walk of the
	// pages names them, when it finds them.
	probs := walkFile(path)
	if len(probs) == 0 {
		probs = []Problem{panicProblem(r)}
	}
	*err = &DamageError{Path: path, Backups: backups, Problems: probs}
	log.Error("store: damage found while reading", "path", path, "problem", probs[0].String(), "bbolt", fmt.Sprint(r))
	log.Debug("store: where bbolt met the damage", "stack", string(debug.Stack()))
}

// openBolt opens the file with bbolt, which reads its freelist then, a
// panic on damage there a *DamageError.
func openBolt(path string, opt *Options, bopts *bolt.Options, log *slog.Logger) (db *bolt.DB, err error) {
	defer onFault()()
	defer func() {
		if r := recover(); r != nil {
			damaged(r, path, opt.Backups, log, &err)
		}
	}()
	return bolt.Open(path, 0o600, bopts)
}

// walkFile walks the pages of the file as its latest meta page has them.
func walkFile(path string) []Problem {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	metas, _ := readMetas(f, fi.Size())
	m := latest(metas)
	if m == nil {
		return nil
	}
	if p, short := cutShort(fi.Size(), m); short {
		// Cut short under a daemon that holds it: its reads past the end
		// fault.
		return []Problem{p}
	}
	return (&pageWalker{f: f, meta: m}).walk()
}

// cutShort returns the problem of a file of size bytes shorter than its
// meta page m counts.
func cutShort(size int64, m *fileMeta) (Problem, bool) {
	need := int64(m.pgid) * int64(m.pageSize)
	if size >= need {
		return Problem{}, false
	}
	return Problem{Where: "file", What: fmt.Sprintf("it is cut short: %d bytes, where its meta page (page %d, transaction %d) counts %d pages of %d bytes, %d bytes; %d bytes (%.0f %%) are missing",
		size, m.page, m.txid, m.pgid, m.pageSize, need, need-size, 100*float64(need-size)/float64(need))}, true
}

// fromBolt reports whether the panic being recovered was raised in bbolt:
// the first frame below the runtime's panic frames is bbolt's.
func fromBolt() bool {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case strings.HasPrefix(f.Function, "runtime."):
			panicking = true
		case panicking:
			return strings.HasPrefix(f.Function, "go.etcd.io/bbolt")
		}
		if !more {
			return false
		}
	}
}

var pageRE = regexp.MustCompile(`(?i)(?:page|pgid|page type:)\D{0,3}\(?(\d+)\)?`)

// panicProblem names what a bbolt panic says is damaged.
func panicProblem(r any) Problem {
	msg := fmt.Sprint(r)
	var re runtime.Error
	if errors.As(asError(r), &re) && strings.Contains(msg, "fault") {
		return Problem{Where: "file", What: "damaged: reading it went past the end of the file or of its memory map (" + msg + ")"}
	}
	if m := pageRE.FindStringSubmatch(msg); m != nil {
		return Problem{Where: "page " + m[1], What: "damaged: " + msg}
	}
	return Problem{Where: "a page", What: "damaged: " + msg}
}

func asError(r any) error {
	if e, ok := r.(error); ok {
		return e
	}
	return fmt.Errorf("%v", r)
}

// onFault makes a fault in reading bbolt's memory map a panic of this
// goroutine, which guard recovers, instead of the end of the process;
// the returned func puts back what was.
func onFault() func() {
	old := debug.SetPanicOnFault(true)
	return func() { debug.SetPanicOnFault(old) }
}
