package embedded

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	bolt "go.etcd.io/bbolt"
)

// session is one IMAP connection's view of the backend: its user once
// logged in, and the mailbox it has selected. imapserver calls its methods
// from the connection's goroutine, one at a time (IDLE excepted, which
// touches only the selected mailbox's tracker).
type session struct {
	b   *backend
	u   *user // nil until login
	sel *view // nil unless a mailbox is selected
}

// view is a selected mailbox, with the updates its session has yet to be
// told of.
type view struct {
	mb        *mailbox
	t         *imapserver.SessionTracker
	searchRes imap.UIDSet
}

var (
	_ imapserver.SessionIMAP4rev2 = (*session)(nil)

	errSameMailbox = &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Source and destination mailboxes are identical"}
)

func (s *session) Close() error {
	s.unselect()
	return nil
}

func (s *session) unselect() {
	if s.sel != nil {
		s.sel.t.Close()
		s.sel = nil
	}
}

func (s *session) Login(username, password string) error {
	u := s.b.users[username]
	if u == nil {
		return imapserver.ErrAuthFailed
	}
	if err := u.login(password); err != nil {
		return err
	}
	s.u = u
	return nil
}

func (s *session) Select(name string, _ *imap.SelectOptions) (*imap.SelectData, error) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	mb := s.u.boxes[canonicalBox(name)]
	if mb == nil {
		return nil, errNoMailbox
	}
	s.unselect()
	s.sel = &view{mb: mb, t: mb.tracker.NewSession()}
	flags := mb.flagsLocked()
	var firstUnseen uint32
	for i, m := range mb.msgs {
		if !m.has(imap.FlagSeen) {
			firstUnseen = uint32(i) + 1
			break
		}
	}
	return &imap.SelectData{
		Flags:             flags,
		PermanentFlags:    append(slices.Clone(flags), imap.FlagWildcard),
		NumMessages:       uint32(len(mb.msgs)),
		FirstUnseenSeqNum: firstUnseen,
		UIDNext:           mb.uidNext,
		UIDValidity:       mb.validity,
	}, nil
}

// flagsLocked lists the flags the mailbox's messages have.
func (mb *mailbox) flagsLocked() []imap.Flag {
	seen := map[imap.Flag]bool{}
	var out []imap.Flag
	for _, m := range mb.msgs {
		for _, f := range m.flags {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return out
}

func (s *session) Unselect() error {
	s.unselect()
	return nil
}

func (s *session) Create(name string, _ *imap.CreateOptions) error {
	return s.b.create(s.u, name)
}

func (s *session) Delete(name string) error { return s.b.delete(s.u, name) }

func (s *session) Rename(from, to string, _ *imap.RenameOptions) error {
	return s.b.rename(s.u, from, to)
}

func (s *session) Subscribe(name string) error { return s.b.subscribe(s.u, name, true) }

func (s *session) Unsubscribe(name string) error { return s.b.subscribe(s.u, name, false) }

func (s *session) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: mailDelim}}}, nil
}

func (s *session) List(w *imapserver.ListWriter, ref string, patterns []string, opt *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: mailDelim})
	}
	s.b.mu.Lock()
	var out []imap.ListData
	for name, mb := range s.u.boxes {
		if !slices.ContainsFunc(patterns, func(p string) bool { return imapserver.MatchList(name, mailDelim, ref, p) }) {
			continue
		}
		if opt.SelectSubscribed && !mb.subscribed || opt.SelectSpecialUse {
			continue // no mailbox here has a special use
		}
		d := imap.ListData{Mailbox: name, Delim: mailDelim}
		if mb.subscribed {
			d.Attrs = append(d.Attrs, imap.MailboxAttrSubscribed)
		}
		if opt.ReturnStatus != nil {
			d.Status = mb.statusLocked(opt.ReturnStatus)
		}
		out = append(out, d)
	}
	s.b.mu.Unlock()
	slices.SortFunc(out, func(a, b imap.ListData) int {
		switch {
		case a.Mailbox < b.Mailbox:
			return -1
		case a.Mailbox > b.Mailbox:
			return 1
		}
		return 0
	})
	for i := range out {
		if err := w.WriteList(&out[i]); err != nil {
			return err
		}
	}
	return nil
}

func (s *session) Status(name string, opt *imap.StatusOptions) (*imap.StatusData, error) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	mb := s.u.boxes[canonicalBox(name)]
	if mb == nil {
		return nil, errNoMailbox
	}
	return mb.statusLocked(opt), nil
}

func (mb *mailbox) statusLocked(opt *imap.StatusOptions) *imap.StatusData {
	d := &imap.StatusData{Mailbox: mb.name}
	count := func(f imap.Flag) *uint32 {
		var n uint32
		for _, m := range mb.msgs {
			if m.has(f) {
				n++
			}
		}
		return &n
	}
	if opt.NumMessages {
		n := uint32(len(mb.msgs))
		d.NumMessages = &n
	}
	if opt.UIDNext {
		d.UIDNext = mb.uidNext
	}
	if opt.UIDValidity {
		d.UIDValidity = mb.validity
	}
	if opt.NumUnseen {
		n := uint32(len(mb.msgs)) - *count(imap.FlagSeen)
		d.NumUnseen = &n
	}
	if opt.NumDeleted {
		d.NumDeleted = count(imap.FlagDeleted)
	}
	if opt.Size {
		var size int64
		for _, m := range mb.msgs {
			size += m.size
		}
		d.Size = &size
	}
	if opt.NumRecent {
		var n uint32
		d.NumRecent = &n
	}
	return d
}

func (s *session) Append(name string, r imap.LiteralReader, opt *imap.AppendOptions) (*imap.AppendData, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return s.b.append(s.u, name, buf.Bytes(), opt)
}

func (s *session) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if s.sel == nil {
		return nil
	}
	return s.sel.t.Poll(w, allowExpunge)
}

func (s *session) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	if s.sel == nil {
		return nil
	}
	return s.sel.t.Idle(w, stop)
}

// numbered is a message of the selected mailbox with its sequence number
// in the mailbox (not in the client's view).
type numbered struct {
	seq uint32
	m   *message
}

// pickLocked returns the selected mailbox's messages in set, in order.
func (v *view) pickLocked(set imap.NumSet) []numbered {
	set = v.static(set)
	var out []numbered
	for i, m := range v.mb.msgs {
		seq := uint32(i) + 1
		var in bool
		switch set := set.(type) {
		case imap.SeqSet:
			c := v.t.EncodeSeqNum(seq)
			in = c != 0 && set.Contains(c)
		case imap.UIDSet:
			in = set.Contains(m.uid)
		}
		if in {
			out = append(out, numbered{seq, m})
		}
	}
	return out
}

// static gives "*" its value, and "$" the last search's result.
func (v *view) static(set imap.NumSet) imap.NumSet {
	if imap.IsSearchRes(set) {
		return v.searchRes
	}
	switch set := set.(type) {
	case imap.SeqSet:
		most := uint32(len(v.mb.msgs))
		for i := range set {
			staticRange(&set[i].Start, &set[i].Stop, most)
		}
	case imap.UIDSet:
		most := uint32(v.mb.uidNext) - 1
		for i := range set {
			staticRange((*uint32)(&set[i].Start), (*uint32)(&set[i].Stop), most)
		}
	}
	return set
}

func staticRange(start, stop *uint32, most uint32) {
	dyn := false
	if *start == 0 {
		*start, dyn = most, true
	}
	if *stop == 0 {
		*stop, dyn = most, true
	}
	if dyn && *start > *stop {
		*start, *stop = *stop, *start
	}
}

// fetched is what a FETCH answers of one message, taken under the lock
// and written without it: a client that reads slowly holds no one else up.
type fetched struct {
	seq   uint32 // in the client's view
	m     message
	flags []imap.Flag
	buf   []byte
}

func (s *session) Fetch(w *imapserver.FetchWriter, set imap.NumSet, opt *imap.FetchOptions) error {
	markSeen := slices.ContainsFunc(opt.BodySection, func(bs *imap.FetchItemBodySection) bool { return !bs.Peek })
	needBody := opt.Envelope || opt.BodyStructure != nil || len(opt.BodySection) > 0 ||
		len(opt.BinarySection) > 0 || len(opt.BinarySectionSize) > 0

	s.b.mu.Lock()
	v := s.sel
	picked := v.pickLocked(set)
	var out []fetched
	err := func() error {
		if markSeen && !v.mb.deleted {
			if err := s.markSeenLocked(v, picked); err != nil {
				return err
			}
		}
		for _, p := range picked {
			f := fetched{seq: v.t.EncodeSeqNum(p.seq), m: message{uid: p.m.uid, t: p.m.t, size: p.m.size}, flags: p.m.flagList()}
			if needBody {
				buf, err := s.b.body(s.u, v.mb, p.m)
				if err != nil {
					return answer(err)
				}
				f.buf = buf
			}
			out = append(out, f)
		}
		return nil
	}()
	s.b.mu.Unlock()
	if err != nil {
		return err
	}
	for _, f := range out {
		if err := writeFetch(w.CreateMessage(f.seq), &f, opt); err != nil {
			return err
		}
	}
	return nil
}

// markSeenLocked flags the picked messages not yet seen \Seen, in the file
// first: if it cannot be written, no flag changes.
func (s *session) markSeenLocked(v *view, picked []numbered) error {
	var changed []*message
	var seqs []uint32
	seen := canonicalFlag(imap.FlagSeen)
	for _, p := range picked {
		if !p.m.has(seen) {
			changed, seqs = append(changed, p.m), append(seqs, p.seq)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	err := s.b.inTx(func(tx *bolt.Tx) error {
		olds := make([][]imap.Flag, len(changed))
		for i, m := range changed {
			olds[i], m.flags = m.flags, flagSet(append(slices.Clone(m.flags), seen))
		}
		err := putFlagsLocked(tx, s.u, v.mb, changed)
		if err != nil {
			for i, m := range changed {
				m.flags = olds[i]
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	for i, m := range changed {
		v.mb.tracker.QueueMessageFlags(seqs[i], m.uid, m.flagList(), nil)
	}
	return nil
}

func writeFetch(w *imapserver.FetchResponseWriter, f *fetched, opt *imap.FetchOptions) error {
	w.WriteUID(f.m.uid)
	if opt.Flags {
		w.WriteFlags(f.flags)
	}
	if opt.InternalDate {
		w.WriteInternalDate(f.m.t)
	}
	if opt.RFC822Size {
		w.WriteRFC822Size(f.m.size)
	}
	if opt.Envelope {
		w.WriteEnvelope(envelope(f.buf))
	}
	if opt.BodyStructure != nil {
		w.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(f.buf)))
	}
	for _, bs := range opt.BodySection {
		buf := imapserver.ExtractBodySection(bytes.NewReader(f.buf), bs)
		if err := writeSection(w.WriteBodySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bs := range opt.BinarySection {
		buf := imapserver.ExtractBinarySection(bytes.NewReader(f.buf), bs)
		if err := writeSection(w.WriteBinarySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bss := range opt.BinarySectionSize {
		w.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(bytes.NewReader(f.buf), bss))
	}
	return w.Close()
}

func writeSection(wc interface {
	Write([]byte) (int, error)
	Close() error
}, buf []byte) error {
	_, err := wc.Write(buf)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *session) Store(w *imapserver.FetchWriter, set imap.NumSet, flags *imap.StoreFlags, _ *imap.StoreOptions) error {
	s.b.mu.Lock()
	v := s.sel
	err := func() error {
		if v.mb.deleted {
			return errGone
		}
		picked := v.pickLocked(set)
		news := make([][]imap.Flag, len(picked))
		var changed []*message
		var olds [][]imap.Flag
		for i, p := range picked {
			var ok bool
			if news[i], ok = p.m.withFlags(flags); ok {
				changed, olds = append(changed, p.m), append(olds, p.m.flags)
				p.m.flags = news[i]
			}
		}
		err := s.b.inTx(func(tx *bolt.Tx) error { return putFlagsLocked(tx, s.u, v.mb, changed) })
		if err != nil {
			for i, m := range changed {
				m.flags = olds[i]
			}
			return err
		}
		for _, p := range picked {
			v.mb.tracker.QueueMessageFlags(p.seq, p.m.uid, p.m.flagList(), v.t)
		}
		return nil
	}()
	s.b.mu.Unlock()
	if err != nil || flags.Silent {
		return err
	}
	return s.Fetch(w, set, &imap.FetchOptions{Flags: true})
}

func (s *session) Expunge(_ *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	mb := s.sel.mb
	if mb.deleted {
		return errGone
	}
	gone := map[*message]bool{}
	for _, m := range mb.msgs {
		if m.has(imap.FlagDeleted) && (uids == nil || uids.Contains(m.uid)) {
			gone[m] = true
		}
	}
	if len(gone) == 0 {
		return nil
	}
	if err := s.b.inTx(func(tx *bolt.Tx) error { return removeLocked(tx, s.u, mb, gone) }); err != nil {
		return err
	}
	// The EXPUNGE responses go out with the command's updates (Poll).
	commitRemove(mb, gone)
	return nil
}

func (s *session) Copy(set imap.NumSet, dest string) (*imap.CopyData, error) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	return s.copyLocked(set, dest, false)
}

func (s *session) Move(w *imapserver.MoveWriter, set imap.NumSet, dest string) error {
	s.b.mu.Lock()
	data, err := s.copyLocked(set, dest, true)
	s.b.mu.Unlock()
	if err != nil {
		return err
	}
	// The EXPUNGE responses follow, with the command's updates (Poll).
	return w.WriteCopyData(data)
}

// copyLocked copies the messages in set to dest, and with move removes
// them from the selected mailbox, in one transaction: a message moved is
// in one mailbox or the other, whenever the servers stop.
func (s *session) copyLocked(set imap.NumSet, destName string, move bool) (*imap.CopyData, error) {
	src := s.sel.mb
	dest := s.u.boxes[canonicalBox(destName)]
	switch {
	case dest == nil:
		return nil, errTryCreate
	case dest == src:
		return nil, errSameMailbox
	case src.deleted:
		return nil, errGone
	}
	picked := s.sel.pickLocked(set)
	copies := make([]*message, len(picked))
	bodies := make([][]byte, len(picked))
	gone := map[*message]bool{}
	var data imap.CopyData
	for i, p := range picked {
		copies[i] = &message{t: p.m.t, size: p.m.size, flags: p.m.flagList()}
		gone[p.m] = true
		data.SourceUIDs.AddNum(p.m.uid)
	}
	err := s.b.inTx(func(tx *bolt.Tx) error {
		for i, p := range picked {
			if tx == nil {
				bodies[i] = p.m.buf
				continue
			}
			bb, err := boxBucket(tx, s.u, src)
			if err != nil {
				return err
			}
			// A copy: what Get returns lies in the file's mapping, which
			// the transaction may remap as it grows the file.
			bodies[i] = slices.Clone(bb.Bucket(bucketBodies).Get(u32(uint32(p.m.uid))))
			if bodies[i] == nil {
				return fmt.Errorf("message %d of %q has no body in the mail file", p.m.uid, src.name)
			}
		}
		if err := s.b.appendLocked(tx, s.u, dest, copies, bodies); err != nil {
			return err
		}
		if move {
			return removeLocked(tx, s.u, src, gone)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	commitAppend(dest, copies)
	if move {
		commitRemove(src, gone)
	}
	for _, m := range copies {
		data.DestUIDs.AddNum(m.uid)
	}
	data.UIDValidity = dest.validity
	return &data, nil
}

func (s *session) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, opt *imap.SearchOptions) (*imap.SearchData, error) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	v := s.sel
	v.staticCriteria(criteria)
	var (
		data   imap.SearchData
		seqSet imap.SeqSet
		uidSet imap.UIDSet
	)
	for i, m := range v.mb.msgs {
		seq := v.t.EncodeSeqNum(uint32(i) + 1)
		body := func() []byte {
			buf, _ := s.b.body(s.u, v.mb, m)
			return buf
		}
		if !search(seq, m, lazy(body), criteria) {
			continue
		}
		uidSet.AddNum(m.uid) // kept for SEARCHRES whatever the kind
		var n uint32
		switch kind {
		case imapserver.NumKindSeq:
			if seq == 0 {
				continue
			}
			seqSet.AddNum(seq)
			n = seq
		case imapserver.NumKindUID:
			n = uint32(m.uid)
		}
		if data.Min == 0 || n < data.Min {
			data.Min = n
		}
		if n > data.Max {
			data.Max = n
		}
		data.Count++
	}
	if kind == imapserver.NumKindSeq {
		data.All = seqSet
	} else {
		data.All = uidSet
	}
	if opt.ReturnSave {
		v.searchRes = uidSet
	}
	return &data, nil
}

// staticCriteria gives the criteria's "*" and "$" their values.
func (v *view) staticCriteria(c *imap.SearchCriteria) {
	seqs := make([]imap.SeqSet, 0, len(c.SeqNum))
	for _, set := range c.SeqNum {
		switch set := v.static(set).(type) {
		case imap.SeqSet:
			seqs = append(seqs, set)
		case imap.UIDSet: // "$"
			c.UID = append(c.UID, set)
		}
	}
	c.SeqNum = seqs
	for i, set := range c.UID {
		c.UID[i] = v.static(set).(imap.UIDSet)
	}
	for i := range c.Not {
		v.staticCriteria(&c.Not[i])
	}
	for i := range c.Or {
		v.staticCriteria(&c.Or[i][0])
		v.staticCriteria(&c.Or[i][1])
	}
}

// lazy returns f's result, calling f once at most.
func lazy(f func() []byte) func() []byte {
	var buf []byte
	done := false
	return func() []byte {
		if !done {
			buf, done = f(), true
		}
		return buf
	}
}
