package mail

import (
	"bytes"
	"fmt"
	"testing"

	"titm/store"
)

// TestRecentPictures: the pictures drawn last are kept, the latest used
// last to go, and a mail whose picture is kept is made without drawing it
// again (the store, nil here, is not touched).
func TestRecentPictures(t *testing.T) {
	var r recentPictures
	for i := range keptPictures {
		r.put(fmt.Sprint(i), []byte{byte(i)})
	}
	r.get("0") // used: now the latest
	r.put("new", []byte("new"))
	if r.get("1") != nil {
		t.Error("the least lately used picture is still kept")
	}
	kept := []string{"0", "new"}
	for i := 2; i < keptPictures; i++ {
		kept = append(kept, fmt.Sprint(i))
	}
	for _, k := range kept {
		if r.get(k) == nil {
			t.Errorf("picture %s is gone", k)
		}
	}
	if len(r.pngs) != keptPictures || len(r.keys) != keptPictures {
		t.Errorf("%d pictures kept by %d keys, want %d", len(r.pngs), len(r.keys), keptPictures)
	}

	due := []*store.Mail{{ID: 1, Deferred: true, Snapshot: "new"}, {ID: 2, Deferred: true, Snapshot: "new"}}
	p := newPictures(due, nil, &r, nil)
	for _, m := range due {
		png, err := p.get(m)
		if err != nil || !bytes.Equal(png, []byte("new")) {
			t.Errorf("mail %d: picture %q, %v", m.ID, png, err)
		}
		p.done(m)
	}
	if len(p.m) != 0 {
		t.Errorf("%d pictures left after their mails", len(p.m))
	}
}
