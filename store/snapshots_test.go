package store_test

import (
	"testing"

	"titm/store"
)

// A snapshot stays while a queued mail names it, whether the queue's index
// names it (as this titm writes it) or only the mail's record does (an
// index entry an older titm wrote), and goes with the last such mail.
func TestDropSnapshotWhileNamed(t *testing.T) {
	for _, older := range []bool{false, true} {
		s, _ := open(t)
		var ids []uint64
		err := s.Update(func(tx *store.Tx) error {
			if err := tx.PutSnapshot("snap-1", []byte("position")); err != nil {
				return err
			}
			for _, snap := range []string{"snap-1", "", "snap-1"} {
				m := &store.Mail{Kind: "report", From: "r@example.test", To: []string{"g@example.test"}, Subject: "s",
					Data: []byte("{}"), Deferred: snap != "", Snapshot: snap, Created: t0}
				if err := tx.Queue(m); err != nil {
					return err
				}
				if older {
					if err := tx.AsOlderQueue(m.ID); err != nil {
						return err
					}
				}
				ids = append(ids, m.ID)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []bool{true, true, false} {
			var kept bool
			err := s.Update(func(tx *store.Tx) error {
				q, err := tx.Outbox(store.MailQueued)
				if err != nil {
					return err
				}
				for _, m := range q {
					if m.ID == ids[i] {
						m.Status, m.Sent = store.MailSent, t0
						if err := tx.PutMail(m); err != nil {
							return err
						}
					}
				}
				if err := tx.DropSnapshot("snap-1"); err != nil {
					return err
				}
				kept = tx.Snapshot("snap-1") != nil
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if kept != want {
				t.Errorf("older index %v: after mail %d of 3 sent, the snapshot kept: %v, want %v", older, i+1, kept, want)
			}
			if r, err := s.Check(); err != nil || !r.OK() {
				t.Errorf("older index %v: after mail %d of 3 sent: %v %v", older, i+1, err, r.Problems)
			}
		}
	}
}
