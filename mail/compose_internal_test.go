package mail

import (
	"bytes"
	"crypto/rand"
	"io"
	"regexp"
	"runtime"
	"strings"
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

// goMessageParts is how composeParts wrote a mail before it wrote the
// attachments' base64 itself: with go-message's mail.Writer.
func goMessageParts(b *bytes.Buffer, h gomail.Header, text string, attachments []Attachment) error {
	w, err := gomail.CreateWriter(b, h)
	if err != nil {
		return err
	}
	var th gomail.InlineHeader
	th.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	tw, err := w.CreateSingleInline(th)
	if err != nil {
		return err
	}
	io.WriteString(tw, text)
	tw.Close()
	for _, a := range attachments {
		var ah gomail.AttachmentHeader
		ah.SetContentType(a.Type, nil)
		ah.SetFilename(a.Name)
		aw, err := w.CreateAttachment(ah)
		if err != nil {
			return err
		}
		aw.Write(a.Data)
		aw.Close()
	}
	return w.Close()
}

// boundaryOf finds a mail's MIME boundary, random in each mail.
var boundaryOf = regexp.MustCompile(`boundary=([0-9a-f]+)`)

// A mail with attachments is written byte for byte as go-message's
// mail.Writer writes it, but for its random boundary, whatever the length
// of the attachments (a last line of base64 full or short, none at all),
// whether their base64 was made before (Attachment.encoded), whole or
// written in pieces (base64Lines), or not.
func TestComposePartsAsGoMessage(t *testing.T) {
	var h gomail.Header
	h.SetDate(time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC))
	h.SetAddressList("From", []*gomail.Address{{Address: "referee@test.example"}})
	h.SetSubject("G16-1 played; ünïcode, and a subject long enough to be folded over more than one line of the header")
	h.SetMessageID("abc@test.example")
	text := "The report.\nA line of Japanese: 第１６日 ドイツ軍の第１インパルス\n" + strings.Repeat("A long line of the report that quoted-printable must break. ", 5) + "\n."
	for _, n := range []int{0, 1, 56, 57, 58, 57 * 100, 57*100 + 13, 400 << 10} {
		data := make([]byte, n)
		rand.Read(data)
		for _, pre := range []string{"", "whole", "in pieces"} {
			a := Attachment{Name: "map.png", Type: "image/png", Data: data}
			switch pre {
			case "whole":
				a.encoded, a.Data = appendBase64(nil, data, true), nil
			case "in pieces":
				// As the renderer writes a picture: pieces of every
				// length, a line's worth or not.
				var l base64Lines
				for i, k := 0, 1; i < n; i, k = i+k, k*2%1000+1 {
					l.Write(data[i:min(n, i+k)])
				}
				a.encoded, a.Data = l.close(), nil
			}
			var got, want bytes.Buffer
			if err := composeParts(&got, h, text, []Attachment{a, {Name: "b.txt", Type: "text/plain", Data: []byte("x")}}); err != nil {
				t.Fatal(err)
			}
			a.Data = data
			if err := goMessageParts(&want, h, text, []Attachment{a, {Name: "b.txt", Type: "text/plain", Data: []byte("x")}}); err != nil {
				t.Fatal(err)
			}
			g, w := boundaryOf.FindSubmatch(got.Bytes()), boundaryOf.FindSubmatch(want.Bytes())
			if g == nil || w == nil {
				t.Fatalf("%d bytes: no boundary in\n%.600s\nor\n%.600s", n, got.Bytes(), want.Bytes())
			}
			if gb := bytes.ReplaceAll(got.Bytes(), g[1], w[1]); !bytes.Equal(gb, want.Bytes()) {
				t.Errorf("%d bytes (base64 made before: %v): composed\n%.1500s\nwant\n%.1500s", n, pre, gb, want.Bytes())
			}
		}
	}
}
