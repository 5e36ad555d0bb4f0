package mail

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"regexp"
	"slices"
	"strings"
	"time"
	"titm/rules"
	"unicode/utf8"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // mails in ISO-8859-1, windows-1252 and the like
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"

	"titm/adjudicator/referee"
)

// ErrNoText is returned by ParseIncoming for a mail with no text part to
// read orders from.
var ErrNoText = errors.New("the mail has no text part")

// ReadError is returned by ParseIncoming for a mail it cannot read: Reason
// says what is wrong with the mail in a player's words, for the answer; Err
// is the parser's error, for the operator's log.
type ReadError struct {
	Reason rules.Message
	Err    error
}

func (e *ReadError) Error() string { return e.Reason.String() + " (" + e.Err.Error() + ")" }

func (e *ReadError) Unwrap() error { return e.Err }

// Incoming is a mail as the daemon reads it.
type Incoming struct {
	From       string   // the sender's address, lower case
	MessageID  string   // without angle brackets
	Subject    string   // decoded
	References []string // the thread, for the reply: References then Message-ID
	Text       string   // the body: the text/plain part, or the HTML part as text
	// Bounce is set when the mail is a delivery status notification: the
	// recipients it says could not be reached (their final and original
	// addresses).
	Bounce []string
	// Quoted are the Message-IDs of the mails a delivery status
	// notification returns (its message/rfc822 or text/rfc822-headers
	// part): what tells a real bounce of a mail the referee sent.
	Quoted []string
	// Attachments are the file names of its attachments, such as a
	// report's map.
	Attachments []string
}

// ParseIncoming reads a raw mail. A mail with no text part is returned with
// ErrNoText, its headers read, so that its sender can be told; one that
// cannot be read with a *ReadError, as much of it read as could be.
func ParseIncoming(raw []byte) (*Incoming, error) {
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && r == nil {
		why := rules.M("its header cannot be read")
		if message.IsUnknownEncoding(err) {
			why = rules.M("it is in a transfer encoding the referee does not know")
		}
		return nil, &ReadError{Reason: why, Err: err}
	}
	// A mail of one part in an unknown character set is told at once;
	// its part's text is then the raw bytes.
	whole := message.IsUnknownCharset(err)
	in := &Incoming{}
	in.header(r.Header)
	if t, params, _ := r.Header.ContentType(); t == "multipart/report" && strings.EqualFold(params["report-type"], "delivery-status") {
		in.report(r)
		return in, nil
	}
	var t texts
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		unknown := message.IsUnknownCharset(err) || whole
		if err != nil && !unknown {
			if t.plain != "" || t.html != "" {
				break // keep what was read of a mail cut short
			}
			return in, &ReadError{Reason: rules.M("its parts are broken: a part or the closing boundary is missing, as in a mail cut short"), Err: err}
		}
		if err := t.read(in, p, unknown); err != nil {
			return in, err
		}
	}
	return in, in.text(t.plain, t.plainCS, t.html, t.htmlCS)
}

// texts are the text parts of a mail as read: the first plain and HTML
// ones, and the unknown character set of each, if any.
type texts struct {
	plain, plainCS string
	html, htmlCS   string
}

// read reads a part of a mail: an attachment's name, or a text; unknown
// says that its character set is unknown.
func (t *texts) read(in *Incoming, p *gomail.Part, unknown bool) error {
	h, ok := p.Header.(*gomail.InlineHeader)
	if !ok {
		// Attachments carry no orders.
		if ah, ok := p.Header.(*gomail.AttachmentHeader); ok {
			name, _ := ah.Filename()
			in.Attachments = append(in.Attachments, name)
		}
		return nil
	}
	typ, params, _ := h.ContentType()
	if typ == "" {
		typ = "text/plain"
	}
	body, err := io.ReadAll(io.LimitReader(p.Body, 1<<20))
	if err != nil {
		return &ReadError{Reason: rules.M("its text is damaged: its transfer encoding (base64 or quoted-printable) cannot be decoded"), Err: err}
	}
	// A text in an unknown character set, or one that does not decode,
	// is not read as bytes: its orders could read wrong.
	cs := ""
	if unknown || !utf8.Valid(body) {
		if cs = params["charset"]; cs == "" {
			cs = "us-ascii"
		}
	}
	switch {
	case typ == "text/plain" && t.plain == "" && t.plainCS == "":
		t.plain, t.plainCS = string(body), cs
	case typ == "text/html" && t.html == "" && t.htmlCS == "":
		t.html, t.htmlCS = string(body), cs
	}
	return nil
}

// text sets the mail's text from its plain or HTML part, the plain one
// first; a part whose character set is unknown or does not decode (cs,
// named) is refused.
func (in *Incoming) text(plain, plainCS, html, htmlCS string) error {
	switch {
	case plainCS != "" && (plain != "" || html == ""):
		return charsetError(plainCS)
	case plain != "":
		in.Text = plain
	case htmlCS != "":
		return charsetError(htmlCS)
	case html != "":
		in.Text = HTMLToText(html)
	default:
		return ErrNoText
	}
	// Mail lines end in CRLF on the wire; orders and replies quote lines.
	in.Text = strings.ReplaceAll(in.Text, "\r\n", "\n")
	return nil
}

// charsetError refuses a text in the character set cs, which the referee
// does not know or which its bytes are not.
func charsetError(cs string) error {
	return &ReadError{Reason: rules.M("its text is in the character set %q, which the referee cannot read, or its bytes are not that character set; send it in UTF-8", cs),
		Err: fmt.Errorf("character set %q unknown or not decodable", cs)}
}

// header reads the header fields a mail is known by.
func (in *Incoming) header(h gomail.Header) {
	if from, err := h.AddressList("From"); err == nil && len(from) > 0 {
		in.From = strings.ToLower(from[0].Address)
	}
	in.MessageID, _ = h.MessageID()
	in.Subject, _ = h.Subject()
	// The subject is quoted in answers and warnings: a subject of a
	// hundred kilobytes is quoted by its beginning.
	if len(in.Subject) > maxSubject {
		n := maxSubject
		for n > 0 && !utf8.RuneStart(in.Subject[n]) {
			n--
		}
		in.Subject = in.Subject[:n] + "..."
	}
	refs, _ := h.MsgIDList("References")
	if len(refs) == 0 {
		refs, _ = h.MsgIDList("In-Reply-To")
	}
	in.References = refs
}

// maxSubject is as much of a subject as the referee reads.
const maxSubject = 200

// maxHeaderBytes is as much of a mail's header as is read of a mail too
// large to read whole.
const maxHeaderBytes = 64 << 10

// ParseHeader reads only the header of a raw mail, or of the header alone:
// a mail over the size limit is known by its header, and its body is never
// read.
func ParseHeader(raw []byte) *Incoming {
	h, _ := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(headerOf(raw))))
	in := &Incoming{}
	in.header(gomail.Header{Header: message.Header{Header: h}})
	return in
}

// headerOf returns the header of a raw mail, up to the blank line that
// ends it, and at most maxHeaderBytes.
func headerOf(raw []byte) []byte {
	end := len(raw)
	if i := bytes.Index(raw, []byte("\n\r\n")); i >= 0 {
		end = i + 3
	}
	if i := bytes.Index(raw, []byte("\n\n")); i >= 0 && i+2 < end {
		end = i + 2
	}
	return raw[:min(end, maxHeaderBytes)]
}

// digestHeaders are the header fields that, with the sender and the text,
// make a mail the same mail: a mail delivered again has them, whatever the
// servers on its way added.
var digestHeaders = []string{"From", "Sender", "To", "Cc", "Subject", "Date", "Message-Id", "In-Reply-To"}

// Digest identifies a raw mail by its content: the SHA-256 of its key
// header fields and its body. The same mail delivered twice has the same
// digest; a mail that only borrows another's Message-ID has not. With
// headerOnly, the body is left out (a mail too large to read), and the
// digest differs from any of a whole mail.
func Digest(raw []byte, headerOnly bool) string {
	head := headerOf(raw)
	h, _ := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(head)))
	d := sha256.New()
	if headerOnly {
		io.WriteString(d, "titm header\n")
	} else {
		io.WriteString(d, "titm mail\n")
	}
	for _, k := range digestHeaders {
		for _, v := range h.Values(k) {
			fmt.Fprintf(d, "%s: %s\n", k, strings.Join(strings.Fields(v), " "))
		}
	}
	if !headerOnly {
		io.WriteString(d, "\n")
		d.Write(bytes.ReplaceAll(raw[len(head):], []byte("\r\n"), []byte("\n")))
	}
	return hex.EncodeToString(d.Sum(nil))
}

// report reads a delivery status notification (RFC 3464): the recipients
// it reports as failed, and the Message-IDs of the mails it returns.
func (in *Incoming) report(r *gomail.Reader) {
	for {
		p, err := r.NextPart()
		if err != nil && (err == io.EOF || !message.IsUnknownCharset(err)) {
			return
		}
		var t string
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			t, _, _ = h.ContentType()
		case *gomail.AttachmentHeader:
			t, _, _ = h.ContentType()
		}
		switch t {
		case "message/delivery-status", "message/global-delivery-status":
			in.Bounce = append(in.Bounce, failedRecipients(p.Body)...)
		case "message/rfc822", "text/rfc822-headers", "message/global", "message/global-headers":
			h, _ := textproto.ReadHeader(bufio.NewReader(io.LimitReader(p.Body, maxHeaderBytes)))
			mh := gomail.Header{Header: message.Header{Header: h}}
			if id, err := mh.MessageID(); err == nil && id != "" {
				in.Quoted = append(in.Quoted, id)
			}
		}
	}
}

// failedRecipients reads the per-recipient fields of a delivery status
// (RFC 3464, 2.3): the final and original recipients of each whose Action
// is failed.
func failedRecipients(body io.Reader) []string {
	var out, rcpts []string
	failed := false
	end := func() {
		if failed {
			out = append(out, rcpts...)
		}
		rcpts, failed = nil, false
	}
	sc := bufio.NewScanner(io.LimitReader(body, 64<<10))
	for sc.Scan() {
		l := sc.Text()
		if strings.TrimSpace(l) == "" {
			end()
			continue
		}
		if l[0] == ' ' || l[0] == '\t' {
			continue // a field's continuation, as of a Diagnostic-Code
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "final-recipient", "original-recipient":
			if _, addr, ok := strings.Cut(v, ";"); ok {
				addr = strings.ToLower(strings.Trim(strings.TrimSpace(addr), "<>"))
				if addr != "" && !slices.Contains(rcpts, addr) {
					rcpts = append(rcpts, addr)
				}
			}
		case "action":
			failed = strings.EqualFold(v, "failed")
		}
	}
	end()
	return out
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
	// encoded, when set, is Data as the mail carries it (appendBase64),
	// made once for every mail that carries it, as both players' reports
	// carry the same picture; Data is then not read.
	encoded []byte
}

// base64Line is how many bytes a line of base64 in a mail holds: 57, in 76
// characters (RFC 2045, 6.8).
const base64Line = 57

// appendBase64 appends data to out in base64 as a mail's part carries it,
// in lines of 76 characters parted by CRLF, the last one without, as
// go-message writes it; unless first, a CRLF comes before its first line
// too, for data that goes on from a part before, which ended at the end of
// a line.
func appendBase64(out, data []byte, first bool) []byte {
	for i := 0; i < len(data); i += base64Line {
		if i > 0 || !first {
			out = append(out, '\r', '\n')
		}
		out = base64.StdEncoding.AppendEncode(out, data[i:min(i+base64Line, len(data))])
	}
	return out
}

// base64Lines is a writer that appends what is written to it to b (empty
// at first), in base64 as appendBase64 writes it, however it is cut into
// writes: a picture goes into it from the renderer as it is put together
// (see draw), with no copy of the PNG.
type base64Lines struct {
	b    []byte
	part [base64Line]byte // the bytes of a line not yet full
	n    int              // how many of part
	in   int              // how many bytes were written
}

func (l *base64Lines) Write(p []byte) (int, error) {
	l.in += len(p)
	n := len(p)
	if l.n > 0 {
		k := copy(l.part[l.n:], p)
		if l.n += k; l.n < base64Line {
			return n, nil
		}
		l.line(l.part[:])
		p, l.n = p[k:], 0
	}
	for len(p) >= base64Line {
		l.line(p[:base64Line])
		p = p[base64Line:]
	}
	l.n = copy(l.part[:], p)
	return n, nil
}

// line appends a line of base64, after the line before.
func (l *base64Lines) line(data []byte) {
	if len(l.b) > 0 {
		l.b = append(l.b, '\r', '\n')
	}
	l.b = base64.StdEncoding.AppendEncode(l.b, data)
}

// close appends the last line, short or none, and returns b.
func (l *base64Lines) close() []byte {
	if l.n > 0 {
		l.line(l.part[:l.n])
		l.n = 0
	}
	return l.b
}

// writeBase64 writes data to w as appendBase64 writes it, a few KB at a
// time.
func writeBase64(w io.Writer, data []byte) error {
	const chunk = 64 * base64Line
	buf := make([]byte, 0, chunk/3*4+64*2+2)
	for i := 0; i < len(data); i += chunk {
		if _, err := w.Write(appendBase64(buf, data[i:min(i+chunk, len(data))], i == 0)); err != nil {
			return err
		}
	}
	return nil
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
	var b bytes.Buffer
	if id, err = composeTo(&b, from, o, now, messageID); err != nil {
		return nil, "", err
	}
	return b.Bytes(), id, nil
}

// composeTo composes as ComposeAs does, onto the end of b: the sender
// composes each mail of a connection into the same buffer, which grows to
// the largest once, where a buffer of its own for each mail with the
// whole map allocated and cleared some 550 KB.
func composeTo(b *bytes.Buffer, from gomail.Address, o *Outgoing, now time.Time, messageID string) (id string, err error) {
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
			return "", err
		}
	}
	h.SetMessageID(messageID)
	if n := len(o.References); n > 0 {
		h.SetMsgIDList("In-Reply-To", o.References[n-1:])
		h.SetMsgIDList("References", o.References)
	}
	h.Set("Auto-Submitted", "auto-replied") // RFC 3834: no vacation replies to the referee's mails
	text := strings.ReplaceAll(o.Text, "\r\n", "\n")
	if len(o.Attachments) == 0 {
		h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
		w, err := gomail.CreateSingleInlineWriter(b, h)
		if err != nil {
			return "", fmt.Errorf("composing a mail: %w", err)
		}
		io.WriteString(w, text)
		if err := w.Close(); err != nil {
			return "", fmt.Errorf("composing a mail: %w", err)
		}
		return messageID, nil
	}
	if err := composeParts(b, h, text, o.Attachments); err != nil {
		return "", fmt.Errorf("composing a mail: %w", err)
	}
	return messageID, nil
}

// composeParts writes a mail of a text and attachments, its header h, as
// go-message's mail.Writer does, but with the attachments in base64 as
// given (Attachment.encoded) or encoded at once: go-message encodes through
// a line wrapper, a few bytes at a time, which took more time than the
// base64 itself, and both players' reports carry the same picture.
func composeParts(b *bytes.Buffer, h gomail.Header, text string, attachments []Attachment) error {
	// Room for it all at once: a picture in base64, some 550 KB for the
	// whole map, would otherwise be copied over and over as the buffer
	// doubles.
	size := 4<<10 + len(text)
	for _, a := range attachments {
		size += base64.StdEncoding.EncodedLen(len(a.Data))*78/76 + len(a.encoded)
	}
	b.Grow(size)
	mw := textproto.NewMultipartWriter(b)
	top := h.Copy()
	if !top.Has("Mime-Version") {
		top.Set("MIME-Version", "1.0")
	}
	top.SetContentType("multipart/mixed", map[string]string{"boundary": mw.Boundary()})
	if err := textproto.WriteHeader(b, top.Header.Header); err != nil {
		return err
	}
	var th gomail.InlineHeader
	th.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	th.Set("Content-Disposition", "inline")
	th.Set("Content-Transfer-Encoding", "quoted-printable")
	pw, err := mw.CreatePart(th.Header.Header)
	if err != nil {
		return err
	}
	qp := quotedprintable.NewWriter(pw)
	io.WriteString(qp, text)
	if err := qp.Close(); err != nil {
		return err
	}
	for _, a := range attachments {
		var ah gomail.AttachmentHeader
		ah.SetContentType(a.Type, nil)
		ah.SetFilename(a.Name)
		ah.Set("Content-Transfer-Encoding", "base64")
		pw, err := mw.CreatePart(ah.Header.Header)
		if err != nil {
			return err
		}
		if a.encoded != nil {
			pw.Write(a.encoded)
		} else {
			writeBase64(pw, a.Data)
		}
	}
	return mw.Close()
}

// newMessageID makes a Message-ID on the domain of addr, of 160 random
// bits: a bounce counts only when it quotes the Message-ID of a mail the
// referee sent, so nobody who has not seen the mail may guess it.
func newMessageID(addr string) (string, error) {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a Message-ID: %w", err)
	}
	domain := "titm.invalid"
	if _, d, ok := strings.Cut(addr, "@"); ok && d != "" {
		domain = d
	}
	return messageIDEncoding.EncodeToString(b[:]) + "@" + domain, nil
}

// messageIDEncoding writes a Message-ID's random part: base32, lower case.
var messageIDEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

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
