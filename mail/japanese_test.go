package mail_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gomail "github.com/emersion/go-message/mail"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"

	ref "titm/adjudicator/referee"
	"titm/mail"
	"titm/rules"
	"titm/rules/scenarios"
)

// A Japanese player's mail, in the charsets Japanese mail programs send
// (ISO-2022-JP, Shift_JIS, UTF-8), with a greeting, orders typed with
// full-width digits or letters, and a signature, reads as the same orders
// as the plain ASCII mail; the greeting and the signature are set aside
// as not read.
func TestJapaneseMailOrders(t *testing.T) {
	s, err := scenarios.Load("campaign")
	if err != nil {
		t.Fatal(err)
	}
	opts := &rules.ParseOptions{Side: rules.German, Keywords: ref.Keywords}
	want, err := rules.ParseOrders("GAME bulge-7\nTOKEN k7f3\nIMPULSE 16-1\nMOVE 116/60 50 49\nREPAIR 51-70 BY 600E\n", s, opts)
	if err != nil {
		t.Fatal(err)
	}
	const body = "お世話になっております。12月16日の命令です。\r\n" +
		"\r\n" +
		"GAME bulge-7\r\n" +
		"TOKEN k7f3\r\n" +
		"IMPULSE １６-１\r\n" +
		"ＭＯＶＥ　１１６／６０　５０　４９\r\n" +
		"REPAIR 51-70 BY 600E。\r\n" +
		"\r\n" +
		"以上、よろしくお願いします。\r\n" +
		"山田\r\n"
	for _, c := range []struct {
		charset, cte string
		enc          encoding.Encoding
	}{
		{"ISO-2022-JP", "7bit", japanese.ISO2022JP},
		{"Shift_JIS", "base64", japanese.ShiftJIS},
		{"UTF-8", "quoted-printable", unicode.UTF8},
		{"UTF-8", "8bit", unicode.UTF8},
	} {
		t.Run(c.charset+" "+c.cte, func(t *testing.T) {
			encoded, err := c.enc.NewEncoder().Bytes([]byte(body))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			switch c.cte {
			case "base64":
				s := base64.StdEncoding.EncodeToString(encoded)
				for len(s) > 76 {
					b.WriteString(s[:76] + "\r\n")
					s = s[76:]
				}
				b.WriteString(s + "\r\n")
			case "quoted-printable":
				w := quotedprintable.NewWriter(&b)
				w.Write(encoded)
				w.Close()
			default:
				b.Write(encoded)
			}
			raw := fmt.Sprintf("From: =?UTF-8?B?5bGx55Sw?= <german@test.example>\r\n"+
				"To: referee@test.example\r\n"+
				"Subject: =?UTF-8?B?5ZG95Luk?=\r\n"+
				"Message-ID: <ja-%s-%s@test.example>\r\n"+
				"Date: Wed, 16 Dec 2026 07:00:00 +0900\r\n"+
				"MIME-Version: 1.0\r\n"+
				"Content-Type: text/plain; charset=%s\r\n"+
				"Content-Transfer-Encoding: %s\r\n"+
				"\r\n%s", c.charset, c.cte, c.charset, c.cte, b.Bytes())
			in, err := mail.ParseIncoming([]byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			if in.Subject != "命令" {
				t.Errorf("subject %q, want 命令", in.Subject)
			}
			o, err := rules.ParseOrders(in.Text, s, opts)
			if err != nil {
				t.Fatalf("refused:\n%v\nthe text read:\n%s", err, in.Text)
			}
			if !reflect.DeepEqual(o.List, want.List) {
				t.Errorf("orders\n%s\nwant\n%s", o.Format(), want.Format())
			}
			if got, want := o.IgnoredText(), "not read as orders: line 1, lines 9-10"; got != want {
				t.Errorf("%q, want the greeting and the signature named: %q", got, want)
			}
		})
	}
}

// A mail to a Japanese player: the subject goes as RFC 2047 encoded-words
// in ASCII, every header line within 998 bytes, the body is declared
// UTF-8, and both read back whole, with the picture attached or not.
func TestComposeJapanese(t *testing.T) {
	subject := "[intro-1] G16-1 終了: 次はA16-1、期限は12月19日 ドイツ軍の攻撃、バストーニュ(88)への移動 補給切れ"
	text := "インパルス G16-1 の報告\n\n" + strings.Repeat("ドイツ軍 116/60 は 50 から 49 へ移動した (8.2)。", 40) + "\n"
	for _, attach := range []bool{false, true} {
		o := &mail.Outgoing{To: []string{"german@test.example"}, Subject: subject, Text: text}
		if attach {
			o.Attachments = []mail.Attachment{{Name: "map.png", Type: "image/png", Data: bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1000)}}
		}
		raw, _, err := mail.Compose(gomail.Address{Name: "審判", Address: "referee@test.example"}, o, time.Date(2026, 12, 16, 7, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		head, _, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
		for _, l := range bytes.Split(head, []byte("\r\n")) {
			for _, c := range l {
				if c >= 0x80 {
					t.Fatalf("attach %v: a header line not in ASCII: %q", attach, l)
				}
			}
			if len(l) > 998 {
				t.Errorf("attach %v: a header line of %d bytes", attach, len(l))
			}
		}
		// Each encoded-word of the subject stands alone (RFC 2047 5.3): a
		// word decoded by itself is whole UTF-8, never half a character.
		words := regexp.MustCompile(`=\?[^?]+\?[bBqQ]\?[^?]*\?=`).FindAll(head, -1)
		if len(words) < 2 {
			t.Errorf("attach %v: the subject is %d encoded-word(s); want it folded into several", attach, len(words))
		}
		var dec mime.WordDecoder
		for _, w := range words {
			d, err := dec.Decode(string(w))
			if err != nil || !utf8.ValidString(d) {
				t.Errorf("attach %v: the encoded-word %s decodes alone to %q (%v): a character is split", attach, w, d, err)
			}
		}
		if !bytes.Contains(raw, []byte("charset=utf-8")) {
			t.Errorf("attach %v: no UTF-8 charset declared:\n%s", attach, head)
		}
		in, err := mail.ParseIncoming(raw)
		if err != nil {
			t.Fatal(err)
		}
		if in.Subject != subject {
			t.Errorf("attach %v: subject read back as %q", attach, in.Subject)
		}
		if strings.TrimRight(in.Text, "\r\n") != strings.TrimRight(text, "\n") {
			t.Errorf("attach %v: the text read back differs:\n%q", attach, in.Text)
		}
	}
}
