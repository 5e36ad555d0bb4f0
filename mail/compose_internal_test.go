package mail

import (
	"bytes"
	"runtime"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"
)

// A mail composed into the buffer of the one before takes no buffer of its
// own: the second of two mails with a picture of 400 KB, some 550 KB each,
// allocates a small part of that, and reads as ComposeAs writes it.
func TestComposeReusesBuffer(t *testing.T) {
	pic := bytes.Repeat([]byte("a picture, as random as a PNG is not "), 400<<10/37)
	o := &Outgoing{To: []string{"german@test.example"}, Subject: "G16-1 played", Text: "The report.\n",
		Attachments: []Attachment{{Name: "map.png", Type: "image/png", Data: pic}}}
	from, now := gomail.Address{Address: "referee@test.example"}, time.Now()
	var buf bytes.Buffer
	if _, err := composeTo(&buf, from, o, now, "first@test.example"); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	buf.Reset()
	if _, err := composeTo(&buf, from, o, now, "second@test.example"); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(buf.Len()/8) {
		t.Errorf("the second mail of %d KB allocated %d KB", buf.Len()>>10, got>>10)
	}
	want, _, err := ComposeAs(from, o, now, "second@test.example")
	if err != nil {
		t.Fatal(err)
	}
	// The MIME boundaries are random: the mails are alike but for them.
	if buf.Len() != len(want) {
		t.Errorf("composed into the buffer: %d bytes, alone: %d", buf.Len(), len(want))
	}
}
