package mail_test

import (
	"fmt"
	"slices"
	"testing"

	"titm/mail"
	"titm/store"
)

// Flush sends mails with no recipient in common at once, each lane over a
// connection of its own; the mails to one address stay in one lane, in
// their order, so that they leave in the order they were queued.
func TestLanes(t *testing.T) {
	for _, c := range []struct {
		name string
		to   [][]string // each mail's recipients, in the queue's order
		want string     // the lanes, by the mails' indexes
	}{
		{"one address", [][]string{{"a"}, {"a"}, {"a"}}, "[[0 1 2]]"},
		{"both players' reports", [][]string{{"a"}, {"b"}}, "[[0] [1]]"},
		{"interleaved", [][]string{{"a"}, {"b"}, {"a"}, {"c"}, {"b"}}, "[[0 2] [1 4] [3]]"},
		{"case of the address", [][]string{{"A@x"}, {"a@X"}}, "[[0 1]]"},
		{"a mail to two joins them", [][]string{{"a"}, {"b"}, {"c"}, {"b", "a"}, {"c"}}, "[[0 1 3] [2 4]]"},
		{"joined later", [][]string{{"a"}, {"b"}, {"c"}, {"c", "b"}, {"a", "c"}}, "[[0 1 2 3 4]]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var due []*store.Mail
			for i, to := range c.to {
				due = append(due, &store.Mail{ID: uint64(i), To: to})
			}
			var got [][]uint64
			for _, lane := range mail.LanesOf(due) {
				var ids []uint64
				for _, m := range lane {
					ids = append(ids, m.ID)
				}
				if !slices.IsSorted(ids) {
					t.Errorf("a lane out of the queue's order: %v", ids)
				}
				got = append(got, ids)
			}
			if s := fmt.Sprint(got); s != c.want {
				t.Errorf("lanes %s, want %s", s, c.want)
			}
		})
	}
}
