package mail

import (
	"bytes"
	"fmt"
	"testing"

	"titm/store"
)

// TestRecentPictures: the pictures drawn last are kept, the latest used
// last to go, and a mail whose picture is kept is made without drawing it
// again (the store, nil here, is not touched). A picture's buffer goes to
// the next picture only once no one holds it: not the recent ones, nor
// the pictures of a Flush, nor a mail being composed.
func TestRecentPictures(t *testing.T) {
	var r recentPictures
	held := func(data string) *picture64 {
		enc := r.buffer()
		enc.b = append(enc.b, data...)
		return enc
	}
	var first []*picture64
	for i := range keptPictures {
		enc := held(fmt.Sprint(i))
		r.put(fmt.Sprint(i), enc)
		first = append(first, enc)
	}
	r.release(r.get("0")) // used: now the latest
	enc := held("new")
	r.put("new", enc)
	r.release(enc) // only the recent ones hold it now
	if r.get("1") != nil {
		t.Error("the least lately used picture is still kept")
	}
	if len(r.free) != 0 {
		t.Errorf("%d buffers freed, while their drawers hold them", len(r.free))
	}
	for _, enc := range first {
		r.release(enc)
	}
	if len(r.free) != 1 || string(first[1].b) != "" || string(first[0].b) != "0" {
		t.Errorf("%d buffers freed, %q and %q left, want picture 1's alone, which nothing held", len(r.free), first[0].b, first[1].b)
	}
	kept := []string{"0", "new"}
	for i := 2; i < keptPictures; i++ {
		kept = append(kept, fmt.Sprint(i))
	}
	for _, k := range kept {
		enc := r.get(k)
		if enc == nil {
			t.Errorf("picture %s is gone", k)
			continue
		}
		r.release(enc)
	}
	if len(r.pngs) != keptPictures || len(r.keys) != keptPictures {
		t.Errorf("%d pictures kept by %d keys, want %d", len(r.pngs), len(r.keys), keptPictures)
	}

	due := []*store.Mail{{ID: 1, Deferred: true, Snapshot: "new"}, {ID: 2, Deferred: true, Snapshot: "new"}}
	p := newPictures(due, nil, &r, nil)
	var taken []*picture64
	for _, m := range due {
		enc, err := p.take(m)
		if err != nil || !bytes.Equal(enc.b, []byte("new")) {
			t.Errorf("mail %d: picture %v, %v", m.ID, enc, err)
			continue
		}
		taken = append(taken, enc)
	}
	if len(p.m) != 0 {
		t.Errorf("%d pictures left after their mails", len(p.m))
	}
	// Pushed out of the recent ones while both mails are composed with it.
	for i := range keptPictures {
		enc := held(fmt.Sprint("later-", i))
		r.put(fmt.Sprint("later-", i), enc)
		r.release(enc)
	}
	for i, enc := range taken {
		if !bytes.Equal(enc.b, []byte("new")) {
			t.Errorf("mail %d: picture %q while composed", due[i].ID, enc.b)
		}
		r.release(enc)
	}
	if len(taken) > 0 && taken[0].b != nil {
		t.Errorf("the picture no one holds keeps its buffer %q", taken[0].b)
	}
}
