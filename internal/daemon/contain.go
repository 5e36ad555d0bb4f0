package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"titm/mail"
	"titm/store"
)

// bbolt does not return an error for every page it cannot read: of a page
// whose header names another kind of page, or an element past the end of
// its page, it panics ("page 5: has unexpected type/flags"), and a read of
// the file past its end (a store cut short while the daemon holds it) is
// a fault of the mapped memory, which kills the process unless the
// goroutine asked for a panic instead. The daemon's doors, the control
// socket and the web listener, serve each request with Contain, so that
// damage met by one request is that request's error, named, and the
// daemon goes on.

// errDamaged is the error of a request that met a damaged store: the
// store's own, which its reads return when they meet damage they can name
// (*store.DamageError), and which Contain wraps when bbolt panicked
// outside them.
var errDamaged = store.ErrDamaged

// Contain runs f, turning a panic or a memory fault in it into an error:
// errDamaged, wrapped with what bbolt said, when it came from reading the
// store; else an internal error. Either is logged with its stack, under
// what, for the operator.
func Contain(log *slog.Logger, what string, f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			stack := debug.Stack()
			err = recovered(r, stack)
			log.Error(what+": "+err.Error(), "panic", fmt.Sprint(r), "stack", string(stack))
		}
	}()
	return f()
}

// recovered is the error of a recovered panic, by the stack it was raised
// on: from bbolt's code, the store is damaged.
func recovered(r any, stack []byte) error {
	if bytes.Contains(stack, []byte("go.etcd.io/bbolt")) {
		what := fmt.Sprint(r)
		if f, ok := r.(interface{ Addr() uintptr }); ok {
			// A memory fault: the mapped file ends, or the disk fails,
			// where a page should be.
			what = fmt.Sprintf("the file cannot be read where a page should be (at memory address %#x): it was cut short, or the disk failed", f.Addr())
		}
		return fmt.Errorf("%w: %s; stop titm serve, run titm check-store, and restore the last good backup (docs/operating.md)", errDamaged, what)
	}
	return fmt.Errorf("an internal error of titm: %v (the daemon's log has its stack)", r)
}

// Damage remembers the first damage the daemon's doors met, which its
// status tells from then until the daemon stops: the damaged page may be
// one the status's own reading never reaches, as a game's log that only
// the journal or a check reads, and a monitor must learn of it all the
// same. It is safe for concurrent use; a nil *Damage remembers nothing.
type Damage struct {
	log *slog.Logger
	mu  sync.Mutex
	err error
	at  time.Time
}

// Note remembers err when it is the first damage met.
func (d *Damage) Note(err error) {
	if d == nil || !errors.Is(err, errDamaged) {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err == nil {
		d.err, d.at = err, time.Now()
	}
}

// Status returns f, read under Contain, with the damage met among its
// problems.
func (d *Damage) Status(f func() (*mail.Status, error)) func() (*mail.Status, error) {
	return func() (*mail.Status, error) {
		var s *mail.Status
		err := Contain(d.log, "status", func() error {
			var err error
			s, err = f()
			return err
		})
		if err != nil {
			d.Note(err)
			return nil, err
		}
		d.mu.Lock()
		met, at := d.err, d.at
		d.mu.Unlock()
		if met != nil {
			s.Problems = append(s.Problems, fmt.Sprintf("a request met damage in the store at %s, and the daemon has not been started again since: %v", at.UTC().Format(time.RFC3339), met))
			s.Healthy = false
		}
		return s, nil
	}
}
