package store_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/store"
)

// Every write of the store goes through put, del and nextSequence, which
// keep the sums (sums.go): a value written by a bare bbolt Put has no sum,
// and the daemon would refuse the store at its next start. Only they, and
// the migrations of the schemas before the sums (version 9 makes them all
// afresh), write by themselves.
func TestWritesKeepSums(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	allowed := func(fn string) bool {
		return fn == "put" || fn == "del" || fn == "nextSequence" || fn == "resum" || strings.HasPrefix(fn, "migrate")
	}
	var found int
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || allowed(fn.Name.Name) {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					switch sel.Sel.Name {
					case "Put", "Delete", "NextSequence", "SetSequence":
						t.Errorf("%s: %s writes with %s: write with put, del or nextSequence, which keep the sums", f, fn.Name.Name, sel.Sel.Name)
					}
				}
				found++
				return true
			})
		}
	}
	if found == 0 {
		t.Fatal("no calls read")
	}
}

// After every kind of write the store checks clean: sums, schemas and all.
func TestEveryWriteChecksClean(t *testing.T) {
	s, _ := open(t)
	played(t, s, 2, 2)
	err := s.Update(func(tx *store.Tx) error {
		if err := tx.PutSnapshot("snap-1", []byte("position")); err != nil {
			return err
		}
		if err := tx.PutSnapshot("snap-2", []byte("position")); err != nil {
			return err
		}
		if err := tx.DropSnapshot("snap-2"); err != nil {
			return err
		}
		q, err := tx.Outbox(store.MailQueued)
		if err != nil {
			return err
		}
		q[0].Status, q[0].Sent = store.MailSent, t0.Add(time.Hour)
		if err := tx.PutMail(q[0]); err != nil {
			return err
		}
		q[1].Status, q[1].Attempts, q[1].Error = store.MailFailed, 3, "550 no such user"
		if err := tx.PutMail(q[1]); err != nil {
			return err
		}
		g, err := tx.Game("intro-1")
		if err != nil {
			return err
		}
		g.Observers = append(g.Observers, "o@example.test")
		if err := tx.IndexGame(g); err != nil {
			return err
		}
		return tx.SetMeta("referee", "r@example.test")
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, check := range map[string]func() (*store.CheckReport, error){"Verify": s.Verify, "Check": s.Check} {
		if r, err := check(); err != nil || !r.OK() {
			t.Errorf("%s: %v %v", name, err, r.Problems)
		}
	}
}
