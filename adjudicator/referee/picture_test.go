package referee

import (
	"bytes"
	"encoding/json"
	"runtime"
	"testing"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/picture"
	"titm/rules"
	"titm/rules/scenarios"
)

// campaignStart is the JSON of the campaign's first position, some 17 KB:
// the position a snapshot holds.
func campaignStart(t *testing.T) []byte {
	t.Helper()
	s, err := scenarios.Load("campaign")
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(rules.NewState(s))
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// TestSnapshotKept: a snapshot is kept deflated and read back whole; one
// kept as plain JSON, before snapshots were deflated, still reads.
func TestSnapshotKept(t *testing.T) {
	st := campaignStart(t)
	js, err := json.Marshal(Snapshot{Game: "campaign-1", Title: "a title", State: st,
		Highlights: picture.Highlights{Battles: []int{38}, Lost: []picture.Lost{{Unit: "99/393", Area: 38}}}})
	if err != nil {
		t.Fatal(err)
	}
	packed := packSnapshot(js)
	if len(packed) > len(js)/3 {
		t.Errorf("the snapshot is kept in %d bytes, its JSON %d", len(packed), len(js))
	}
	for _, data := range [][]byte{packed, js} {
		snap, err := ReadSnapshot(data)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := json.Marshal(snap)
		if !bytes.Equal(back, js) {
			t.Errorf("the snapshot read back differs:\n%s\nwant\n%s", back, js)
		}
	}
	if _, err := ReadSnapshot(packed[:len(packed)/2]); err == nil {
		t.Error("half a snapshot reads")
	}
}

// TestSnapshotWriterKept: packing a snapshot makes no deflate writer of
// its own, of some 600 KB, even when the collector runs between two
// reports, as it does in a daemon drawing map pictures under its soft
// memory limit.
func TestSnapshotWriterKept(t *testing.T) {
	js := campaignStart(t)
	packSnapshot(js) // the writer made once
	const n = 10
	var total uint64
	for range n {
		// Twice: a sync.Pool keeps what it held for one more
		// collection.
		runtime.GC()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		packSnapshot(js)
		runtime.ReadMemStats(&after)
		total += after.TotalAlloc - before.TotalAlloc
	}
	if per := total / n; per > 64<<10 {
		t.Errorf("packing a snapshot allocated %d KB, want under 64", per>>10)
	}
}

// TestSnapshotReaderKept: reading a snapshot makes no inflater of its
// own, nor a buffer for its JSON, a picture at a time; and a snapshot read
// keeps nothing of the buffer, which the next one reads into.
func TestSnapshotReaderKept(t *testing.T) {
	st := campaignStart(t)
	pack := func(game string) []byte {
		js, err := json.Marshal(Snapshot{Game: game, Title: "the title of " + game, State: st})
		if err != nil {
			t.Fatal(err)
		}
		return packSnapshot(js)
	}
	a, b := pack("campaign-1"), pack("campaign-22")
	first, err := ReadSnapshot(a)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(first)
	// The kept reader, left by a snapshot cut short, reads the next
	// whole.
	if _, err := ReadSnapshot(b[:len(b)/2]); err == nil {
		t.Fatal("half a snapshot reads")
	}
	if again, err := ReadSnapshot(a); err != nil {
		t.Fatalf("a snapshot after one cut short: %v", err)
	} else if got, _ := json.Marshal(again); !bytes.Equal(got, want) {
		t.Errorf("a snapshot after one cut short reads as:\n%s\nwant\n%s", got, want)
	}
	const n = 10
	var total uint64
	for range n {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := ReadSnapshot(b); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		total += after.TotalAlloc - before.TotalAlloc
	}
	if got, _ := json.Marshal(first); !bytes.Equal(got, want) {
		t.Errorf("a snapshot read changed once the next was read:\n%s\nwant\n%s", got, want)
	}
	// The snapshot's own: its position's JSON, copied, and its strings.
	if per := total / n; per > uint64(len(st))+8<<10 {
		t.Errorf("reading a snapshot allocated %d KB, its position being %d KB", per>>10, len(st)>>10)
	}
}

// TestPictureTitle: a report's picture is of the position after its
// impulse; a STATUS picture of the position before the impulse to play.
func TestPictureTitle(t *testing.T) {
	s, err := scenarios.Load("intro")
	if err != nil {
		t.Fatal(err)
	}
	st := rules.NewState(s)
	st.Next = rules.Impulse{Side: rules.German, Day: 18, N: 1}
	st.VP = 2
	g := &adjudicator.Game{ID: "intro-1", State: st}
	for _, c := range []struct{ impulse, want string }{
		{"A17-3", "Game intro-1 — after impulse A17-3 — German VP 2"},
		{statusPicture, "Game intro-1 — position before G18-1 — German VP 2"},
		// The start's picture is of the position before the first impulse.
		{startPicture, "Game intro-1 — position before G18-1 — German VP 2"},
	} {
		if got := pictureTitle(lang.EN(), g, c.impulse); got != c.want {
			t.Errorf("%s: %q, want %q", c.impulse, got, c.want)
		}
	}
	if got, want := pictureTitle(lang.For(lang.Japanese), g, startPicture), "ゲーム intro-1 — インパルス G18-1 開始前 — ドイツ軍VP 2"; got != want {
		t.Errorf("start in Japanese: %q, want %q", got, want)
	}
}
