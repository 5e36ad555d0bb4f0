package store_test

import (
	"testing"

	"titm/store"
)

// A key (mailbox, UIDVALIDITY, UID) handled before is not enough to skip a
// mail whose content differs: a server that gives UIDs again holds another
// mail under it. The old record comes back, not marked processed, unless
// the new mail's digest was itself processed.
func TestProcessedKeyReused(t *testing.T) {
	s, _ := open(t)
	err := s.Update(func(tx *store.Tx) error {
		for _, p := range []store.Processed{
			{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Digest: "d1", Time: t0, Outcome: "first"},
			{Mailbox: "INBOX", UIDValidity: 1, UID: 2, Digest: "d2", Time: t0, Outcome: "second"},
			{Mailbox: "INBOX", UIDValidity: 1, UID: 3, Time: t0, Outcome: "no digest"},
		} {
			if err := tx.MarkProcessed(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *store.Tx) error {
		for _, c := range []struct {
			uid     uint32
			digest  string
			done    bool
			outcome string // of the record returned; "" for none
		}{
			{1, "", true, "first"},       // by the key alone
			{1, "d1", true, "first"},     // the same mail
			{1, "d9", false, "first"},    // another mail under a key handled: handled, and told of
			{1, "d2", true, "second"},    // another mail under the key, itself handled under another
			{3, "d9", true, "no digest"}, // a record without a digest is trusted by its key
			{4, "d9", false, ""},         // never seen
			{4, "d1", true, "first"},     // the same mail under a new key
		} {
			p, done, err := tx.WasProcessed("INBOX", 1, c.uid, c.digest)
			outcome := ""
			if p != nil {
				outcome = p.Outcome
			}
			if err != nil || done != c.done || outcome != c.outcome {
				t.Errorf("UID %d, digest %q: %q, %v, %v; want %q, %v", c.uid, c.digest, outcome, done, err, c.outcome, c.done)
			}
		}
		return nil
	})
}
