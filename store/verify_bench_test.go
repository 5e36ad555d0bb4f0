package store_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"titm/store"
)

// big writes a store of about 100 MB: 300 games with their logs, 50 000
// messages processed, 10 000 mails of the outbox, a third of them queued
// with their messages (and the free pages a store's updates leave).
func big(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "big.db")
	s, err := store.Open(path, &store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := range 300 {
		s.Update(func(tx *store.Tx) error { makeGame(b, tx, "intro", secret(byte(i))); return nil })
	}
	body := bytes.Repeat([]byte("All units hold their ground; the report follows.\r\n"), 40)
	for batch := range 10 {
		err := s.Update(func(tx *store.Tx) error {
			for i := range 5000 {
				n := batch*5000 + i
				err := tx.MarkProcessed(store.Processed{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(n + 1), MessageID: fmt.Sprintf("<%d@player.example.test>", n),
					Digest: fmt.Sprintf("%064x", n), Game: fmt.Sprintf("intro-%d", n%300+1), Time: t0.Add(time.Duration(n) * time.Minute), Outcome: "orders applied"})
				if err != nil {
					return err
				}
				if i%5 != 0 {
					continue
				}
				m := &store.Mail{Game: fmt.Sprintf("intro-%d", n%300+1), Kind: "report", MessageID: fmt.Sprintf("<r%d@referee.example.test>", n),
					From: "referee@example.test", To: []string{"g@example.test", "a@example.test"}, Subject: "intro: report",
					Data: append([]byte("Subject: intro: report\r\n\r\n"), body...), Created: t0.Add(time.Duration(n) * time.Minute)}
				if err := tx.Queue(m); err != nil {
					return err
				}
				if i%3 != 0 {
					m.Status, m.Sent = store.MailSent, m.Created.Add(time.Second)
					// The sent mail's message is dropped; keep the size of
					// a store whose mails are kept as sent.
					if err := tx.PutMail(m); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// The daemon's start check of its store (store.Open's check of the file,
// then Verify: every page, every value's sum, every record's schema) on
// a store of about 100 MB.
func BenchmarkStartCheck(b *testing.B) {
	path := big(b)
	fi, _ := os.Stat(path)
	// The machine may be shared: the CPU time the check takes is
	// reported beside the time it took.
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	for b.Loop() {
		s, err := store.Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		r, err := s.Verify()
		if err != nil || !r.OK() {
			b.Fatal(err, r.Problems)
		}
		s.Close()
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(fi.Size())/1e6, "MB")
}
