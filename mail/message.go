package mail

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"regexp"
	"strings"
	"time"

	_ "github.com/emersion/go-message/charset" // mails in ISO-8859-1, windows-1252 and the like
	gomail "github.com/emersion/go-message/mail"

	"titm/adjudicator/referee"
)

// ErrNoText is returned by ParseIncoming for a mail with no text part to
// read orders from.
var ErrNoText = errors.New("the mail has no text part")

// Incoming is a mail as the daemon reads it.
type Incoming struct {
	From       string   // the sender's address, lower case
	MessageID  string   // without angle brackets
	Subject    string   // decoded
	References []string // the thread, for the reply: References then Message-ID
	Text       string   // the body: the text/plain part, or the HTML part as text
	// Bounce is set when the mail is a delivery status notification: the
	// recipients it says could not be reached.
	Bounce []string
	// Attachments are the file names of its attachments, such as a
	// report's map.
	Attachments []string
}

// ParseIncoming reads a raw mail. A mail with no text part is returned with
// ErrNoText, its headers read, so that its sender can be told.
func ParseIncoming(raw []byte) (*Incoming, error) {
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && r == nil {
		return nil, fmt.Errorf("reading the mail: %w", err)
	}
	in := &Incoming{}
	if from, err := r.Header.AddressList("From"); err == nil && len(from) > 0 {
		in.From = strings.ToLower(from[0].Address)
	}
	in.MessageID, _ = r.Header.MessageID()
	in.Subject, _ = r.Header.Subject()
	refs, _ := r.Header.MsgIDList("References")
	if len(refs) == 0 {
		refs, _ = r.Header.MsgIDList("In-Reply-To")
	}
	in.References = refs
	if t, params, _ := r.Header.ContentType(); t == "multipart/report" && strings.EqualFold(params["report-type"], "delivery-status") {
		in.Bounce = bounced(r)
		return in, nil
	}
	var plain, html string
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			if plain != "" || html != "" {
				break // keep what was read of a mail cut short
			}
			return in, fmt.Errorf("reading the mail's parts: %w", err)
		}
		h, ok := p.Header.(*gomail.InlineHeader)
		if !ok {
			// Attachments carry no orders.
			if ah, ok := p.Header.(*gomail.AttachmentHeader); ok {
				name, _ := ah.Filename()
				in.Attachments = append(in.Attachments, name)
			}
			continue
		}
		t, _, _ := h.ContentType()
		if t == "" {
			t = "text/plain"
		}
		body, err := io.ReadAll(io.LimitReader(p.Body, 1<<20))
		if err != nil {
			return in, fmt.Errorf("reading the mail's text: %w", err)
		}
		switch {
		case t == "text/plain" && plain == "":
			plain = string(body)
		case t == "text/html" && html == "":
			html = string(body)
		}
	}
	switch {
	case plain != "":
		in.Text = plain
	case html != "":
		in.Text = HTMLToText(html)
	default:
		return in, ErrNoText
	}
	// Mail lines end in CRLF on the wire; orders and replies quote lines.
	in.Text = strings.ReplaceAll(in.Text, "\r\n", "\n")
	return in, nil
}

// bounced reads the recipients a delivery status notification (RFC 3464)
// reports as failed.
func bounced(r *gomail.Reader) []string {
	var out []string
	for {
		p, err := r.NextPart()
		if err != nil {
			return out
		}
		var t string
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			t, _, _ = h.ContentType()
		case *gomail.AttachmentHeader:
			t, _, _ = h.ContentType()
		}
		if t != "message/delivery-status" {
			continue
		}
		var rcpt string
		sc := bufio.NewScanner(io.LimitReader(p.Body, 64<<10))
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "final-recipient", "original-recipient":
				if _, addr, ok := strings.Cut(v, ";"); ok {
					rcpt = strings.ToLower(strings.TrimSpace(addr))
				}
			case "action":
				if strings.EqualFold(v, "failed") && rcpt != "" {
					out = append(out, rcpt)
				}
			}
		}
	}
}

// subjectGame finds a game id written in a subject as [id].
var subjectGame = regexp.MustCompile(`\[([A-Za-z0-9._-]+)\]`)

// Outgoing is a mail the daemon sends.
type Outgoing struct {
	To         []string
	Subject    string
	Text       string
	References []string // the thread it answers, oldest first; the last is In-Reply-To
	// Attachments, such as the map picture.
	Attachments []Attachment `json:"-"`
	// Map, when set, is the map picture the mail carries, drawn when it is
	// sent.
	Map *referee.MapRef `json:"map,omitempty"`
}

// Attachment is a file sent with a mail.
type Attachment struct {
	Name string
	Type string // MIME type
	Data []byte
}

// Compose writes an outgoing mail as RFC 5322 text: From the referee, a new
// Message-ID on the referee's domain, threaded under References.
func Compose(from gomail.Address, o *Outgoing, now time.Time) (data []byte, messageID string, err error) {
	return ComposeAs(from, o, now, "")
}

// ComposeAs composes as Compose does, with a given date and Message-ID ("":
// a new one): a mail composed when it is sent keeps the identity it was
// given when it was queued.
func ComposeAs(from gomail.Address, o *Outgoing, now time.Time, messageID string) (data []byte, id string, err error) {
	var h gomail.Header
	h.SetDate(now)
	h.SetAddressList("From", []*gomail.Address{&from})
	var to []*gomail.Address
	for _, a := range o.To {
		to = append(to, &gomail.Address{Address: a})
	}
	h.SetAddressList("To", to)
	h.SetSubject(o.Subject)
	if messageID == "" {
		if messageID, err = newMessageID(from.Address); err != nil {
			return nil, "", err
		}
	}
	h.SetMessageID(messageID)
	if n := len(o.References); n > 0 {
		h.SetMsgIDList("In-Reply-To", o.References[n-1:])
		h.SetMsgIDList("References", o.References)
	}
	h.Set("Auto-Submitted", "auto-replied") // RFC 3834: no vacation replies to the referee's mails
	var b bytes.Buffer
	text := strings.ReplaceAll(o.Text, "\r\n", "\n")
	if len(o.Attachments) == 0 {
		h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
		w, err := gomail.CreateSingleInlineWriter(&b, h)
		if err != nil {
			return nil, "", fmt.Errorf("composing a mail: %w", err)
		}
		io.WriteString(w, text)
		if err := w.Close(); err != nil {
			return nil, "", fmt.Errorf("composing a mail: %w", err)
		}
		return b.Bytes(), messageID, nil
	}
	w, err := gomail.CreateWriter(&b, h)
	if err != nil {
		return nil, "", fmt.Errorf("composing a mail: %w", err)
	}
	var th gomail.InlineHeader
	th.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	tw, err := w.CreateSingleInline(th)
	if err != nil {
		return nil, "", fmt.Errorf("composing a mail: %w", err)
	}
	io.WriteString(tw, text)
	tw.Close()
	for _, a := range o.Attachments {
		var ah gomail.AttachmentHeader
		ah.SetContentType(a.Type, nil)
		ah.SetFilename(a.Name)
		aw, err := w.CreateAttachment(ah)
		if err != nil {
			return nil, "", fmt.Errorf("composing a mail: %w", err)
		}
		aw.Write(a.Data)
		aw.Close()
	}
	if err := w.Close(); err != nil {
		return nil, "", fmt.Errorf("composing a mail: %w", err)
	}
	return b.Bytes(), messageID, nil
}

// newMessageID makes a Message-ID on the domain of addr.
func newMessageID(addr string) (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a Message-ID: %w", err)
	}
	domain := "titm.invalid"
	if _, d, ok := strings.Cut(addr, "@"); ok && d != "" {
		domain = d
	}
	return hex.EncodeToString(b[:]) + "@" + domain, nil
}

// replySubject is the subject of a reply: the game's id in brackets, as
// players may write it to name the game, and the subject answered.
func replySubject(game, subject string) string {
	subject = strings.TrimSpace(subject)
	if dec, err := new(mime.WordDecoder).DecodeHeader(subject); err == nil {
		subject = dec
	}
	if game != "" && !strings.Contains(subject, "["+game+"]") {
		subject = "[" + game + "] " + subject
	}
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = "Re: " + subject
	}
	return subject
}
