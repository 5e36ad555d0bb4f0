package embedded

import (
	"crypto/subtle"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// mailDelim separates the levels of mailbox names.
const mailDelim rune = '/'

// openTimeout bounds the wait for the mail file's lock: another process
// holding it (a serve already running) is an error, not a hang.
const openTimeout = time.Second

// The mail file's layout. The bucket "meta" holds the layout's version and
// the last UIDVALIDITY given; "users" holds a bucket for each user, by
// lowercased address, and in it a bucket for each mailbox, keyed by a
// number of the user's sequence (so a rename keeps the key, and a mailbox
// made again under an old name gets a new one). A mailbox's bucket holds
// its state (name, UIDVALIDITY, UIDNEXT, subscription) under "state", and
// two buckets keyed by UID: "msgs", each message's date, size and flags,
// and "bodies", the message itself.
var (
	bucketMeta   = []byte("meta")
	bucketUsers  = []byte("users")
	bucketMsgs   = []byte("msgs")
	bucketBodies = []byte("bodies")
	keyValidity  = []byte("uidvalidity")
	keyState     = []byte("state")
	keyVersion   = []byte("version")
)

// mailVersion is the version of the mail file's layout.
const mailVersion = "1"

// backend holds the IMAP server's users and mailboxes. Their index (UIDs,
// dates, sizes, flags) is in memory; when the servers have a mail file,
// every change is written to it, and synced, before it is answered, and
// the messages themselves are read from it when asked for. Without a file
// the messages are kept in memory and lost with the servers.
//
// One mutex guards it all: the servers carry a few players' mail, and one
// lock keeps the file and the memory in step without lock ordering between
// mailboxes (a MOVE changes two).
type backend struct {
	db  *bolt.DB // nil: nothing on disk
	now func() time.Time

	mu           sync.Mutex
	users        map[string]*user // by lowercased address
	lastValidity uint32
}

type user struct {
	name     string
	password string
	boxes    map[string]*mailbox // by name
}

// login checks a password in constant time.
func (u *user) login(password string) error {
	if subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {
		return imapserver.ErrAuthFailed
	}
	return nil
}

type mailbox struct {
	id         uint64 // its bucket's key
	name       string
	validity   uint32
	uidNext    imap.UID
	subscribed bool
	msgs       []*message // by UID, which is the order of sequence numbers
	tracker    *imapserver.MailboxTracker
	deleted    bool // by a session while another had it selected
}

type message struct {
	uid   imap.UID
	t     time.Time
	size  int64
	flags []imap.Flag // lowercased, sorted, without repeats (flagSet)
	buf   []byte      // the message, when nothing is on disk
}

// boxState is a mailbox's "state" record.
type boxState struct {
	Name        string `json:"name"`
	UIDValidity uint32 `json:"uidvalidity"`
	UIDNext     uint32 `json:"uidnext"`
	Subscribed  bool   `json:"subscribed,omitempty"`
}

// msgRecord is a message's record in "msgs".
type msgRecord struct {
	Time  time.Time `json:"time"`
	Size  int64     `json:"size"`
	Flags []string  `json:"flags,omitempty"`
}

// openBackend opens (or makes) the mail file at path, or keeps everything
// in memory when path is empty, and gives every user in users (lowercased
// address to password) the mailboxes INBOX and folders, made if missing.
// Users in the file but not in users are kept there and not served. New
// UIDVALIDITY values are taken from now.
func openBackend(path string, users map[string]string, folders []string, now func() time.Time) (*backend, error) {
	b := &backend{now: now, users: make(map[string]*user, len(users))}
	if path != "" {
		db, err := openFile(path)
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("embedded: the mail file %s is in use by another process (is titm serve running?)", path)
		}
		if err != nil {
			return nil, fmt.Errorf("embedded: opening the mail file %s: %w", path, err)
		}
		b.db = db
	}
	if err := b.load(users, folders); err != nil {
		b.close()
		if path != "" {
			return nil, fmt.Errorf("embedded: the mail file %s: %w (with serve stopped, move it aside to start with empty mailboxes)", path, err)
		}
		return nil, fmt.Errorf("embedded: %w", err)
	}
	return b, nil
}

// openFile opens the mail file. A damaged one can make bbolt panic as it
// reads the freelist; that is an error here, not a crash.
func openFile(path string) (db *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("damaged: %v (with serve stopped, move it aside to start with empty mailboxes)", r)
		}
	}()
	return bolt.Open(path, 0o600, &bolt.Options{Timeout: openTimeout})
}

// load reads the file's users and mailboxes, and makes those missing. A
// damaged file makes bbolt panic as it reads the page; that is an error
// here, not a crash.
func (b *backend) load(users map[string]string, folders []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("damaged: %v", r)
		}
	}()
	err = b.update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		switch v := meta.Get(keyVersion); {
		case v == nil:
			if err := meta.Put(keyVersion, []byte(mailVersion)); err != nil {
				return err
			}
		case string(v) != mailVersion:
			return fmt.Errorf("layout version %q, not %q", v, mailVersion)
		}
		if v := meta.Get(keyValidity); len(v) == 4 {
			b.lastValidity = binary.BigEndian.Uint32(v)
		}
		_, err = tx.CreateBucketIfNotExists(bucketUsers)
		return err
	})
	if err == nil {
		err = b.loadUsers(users)
	}
	if err == nil {
		err = b.makeBoxes(folders)
	}
	return err
}

// loadUsers reads the users' mailboxes from the file.
func (b *backend) loadUsers(users map[string]string) error {
	for name, password := range users {
		b.users[name] = &user{name: name, password: password, boxes: map[string]*mailbox{}}
	}
	if b.db == nil {
		return nil
	}
	return b.db.View(func(tx *bolt.Tx) error {
		for name, u := range b.users {
			ub := tx.Bucket(bucketUsers).Bucket([]byte(name))
			if ub == nil {
				continue
			}
			err := ub.ForEachBucket(func(k []byte) error {
				mb, err := loadBox(ub.Bucket(k), k)
				if err != nil {
					return fmt.Errorf("user %s: mailbox %x: %w", name, k, err)
				}
				if u.boxes[mb.name] != nil {
					return fmt.Errorf("user %s: two mailboxes named %q", name, mb.name)
				}
				u.boxes[mb.name] = mb
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

func loadBox(bb *bolt.Bucket, key []byte) (*mailbox, error) {
	if len(key) != 8 {
		return nil, errors.New("the key is not a mailbox's number")
	}
	var st boxState
	if err := json.Unmarshal(bb.Get(keyState), &st); err != nil {
		return nil, fmt.Errorf("its state: %w", err)
	}
	if st.Name == "" || st.UIDValidity == 0 || st.UIDNext == 0 {
		return nil, fmt.Errorf("its state %q lacks a name, UIDVALIDITY or UIDNEXT", bb.Get(keyState))
	}
	mb := &mailbox{id: binary.BigEndian.Uint64(key), name: st.Name, validity: st.UIDValidity, uidNext: imap.UID(st.UIDNext), subscribed: st.Subscribed}
	msgs := bb.Bucket(bucketMsgs)
	if msgs == nil || bb.Bucket(bucketBodies) == nil {
		return nil, errors.New("its messages are missing")
	}
	err := msgs.ForEach(func(k, v []byte) error {
		var r msgRecord
		if len(k) != 4 {
			return fmt.Errorf("message key %x is not a UID", k)
		}
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("message %d: %w", binary.BigEndian.Uint32(k), err)
		}
		m := &message{uid: imap.UID(binary.BigEndian.Uint32(k)), t: r.Time, size: r.Size}
		if m.uid >= mb.uidNext {
			return fmt.Errorf("message %d is not below UIDNEXT %d", m.uid, mb.uidNext)
		}
		for _, f := range r.Flags {
			m.flags = append(m.flags, imap.Flag(f))
		}
		m.flags = flagSet(m.flags)
		mb.msgs = append(mb.msgs, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	mb.tracker = imapserver.NewMailboxTracker(uint32(len(mb.msgs)))
	return mb, nil
}

// makeBoxes gives every user INBOX and the folders he lacks. They share one
// UIDVALIDITY, which RFC 9051 asks only of one name: a mail file made again
// soon after then gives values above the last one's all the same.
func (b *backend) makeBoxes(folders []string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	var v uint32
	for _, u := range b.users {
		for _, name := range append([]string{"INBOX"}, folders...) {
			if u.boxes[name] != nil {
				continue
			}
			if v == 0 {
				v = b.newValidity()
			}
			if err := b.createLocked(u, name, v); err != nil {
				return fmt.Errorf("creating mailbox %q for %s: %w", name, u.name, err)
			}
		}
	}
	return nil
}

// close closes the mail file.
func (b *backend) close() error {
	if b.db == nil {
		return nil
	}
	return b.db.Close()
}

// update runs fn in a transaction of the mail file, when there is one.
func (b *backend) update(fn func(tx *bolt.Tx) error) error {
	if b.db == nil {
		return nil
	}
	return b.db.Update(fn)
}

func u32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// boxBucket is mb's bucket in tx.
func boxBucket(tx *bolt.Tx, u *user, mb *mailbox) (*bolt.Bucket, error) {
	ub := tx.Bucket(bucketUsers).Bucket([]byte(u.name))
	if ub == nil {
		return nil, fmt.Errorf("user %s is missing from the mail file", u.name)
	}
	bb := ub.Bucket(u64(mb.id))
	if bb == nil {
		return nil, fmt.Errorf("mailbox %q is missing from the mail file", mb.name)
	}
	return bb, nil
}

func putState(bb *bolt.Bucket, mb *mailbox, name string, uidNext imap.UID, subscribed bool) error {
	data, err := json.Marshal(boxState{Name: name, UIDValidity: mb.validity, UIDNext: uint32(uidNext), Subscribed: subscribed})
	if err != nil {
		return err
	}
	return bb.Put(keyState, data)
}

func putMsg(bb *bolt.Bucket, m *message) error {
	r := msgRecord{Time: m.t, Size: m.size, Flags: m.flagNames()}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return bb.Bucket(bucketMsgs).Put(u32(uint32(m.uid)), data)
}

// newValidity returns a UIDVALIDITY never given before in this file (RFC
// 9051, 2.3.1.1: a mailbox made again must not reuse one): the time in
// seconds, or one more than the last when the clock says less, so that a
// new file, too, starts above what an older one gave.
func (b *backend) newValidity() uint32 {
	v := uint32(b.now().Unix())
	if v <= b.lastValidity {
		v = b.lastValidity + 1
	}
	b.lastValidity = v
	return v
}

var (
	errNoMailbox = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "No such mailbox"}
	errTryCreate = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	errExists    = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	errGone      = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "The mailbox has been deleted"}
)

// diskError is what a client is told when the mail file cannot be written:
// the command did nothing, and may be tried again.
func diskError(err error) error {
	return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeServerBug, Text: "The mail could not be kept: " + err.Error()}
}

// canonicalBox spells INBOX in capitals, whatever the client wrote, as it
// is the same mailbox however written (RFC 9051, 5.1), and drops a trailing
// delimiter.
func canonicalBox(name string) string {
	name = strings.TrimRight(name, string(mailDelim))
	if strings.EqualFold(name, "INBOX") {
		return "INBOX"
	}
	return name
}

// createLocked makes the mailbox name of u, with the UIDVALIDITY v, which
// newValidity gave.
func (b *backend) createLocked(u *user, name string, v uint32) error {
	if name == "" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Empty mailbox name"}
	}
	if u.boxes[name] != nil {
		return errExists
	}
	mb := &mailbox{name: name, validity: v, uidNext: 1, tracker: imapserver.NewMailboxTracker(0)}
	err := b.update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketMeta).Put(keyValidity, u32(b.lastValidity)); err != nil {
			return err
		}
		ub, err := tx.Bucket(bucketUsers).CreateBucketIfNotExists([]byte(u.name))
		if err != nil {
			return err
		}
		if mb.id, err = ub.NextSequence(); err != nil {
			return err
		}
		bb, err := ub.CreateBucket(u64(mb.id))
		if err != nil {
			return err
		}
		if _, err := bb.CreateBucket(bucketMsgs); err != nil {
			return err
		}
		if _, err := bb.CreateBucket(bucketBodies); err != nil {
			return err
		}
		return putState(bb, mb, mb.name, mb.uidNext, mb.subscribed)
	})
	if err != nil {
		return err
	}
	u.boxes[name] = mb
	return nil
}

func (b *backend) create(u *user, name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.createLocked(u, canonicalBox(name), b.newValidity()); err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) {
			return err
		}
		return diskError(err)
	}
	return nil
}

func (b *backend) delete(u *user, name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	name = canonicalBox(name)
	mb := u.boxes[name]
	if mb == nil {
		return errNoMailbox
	}
	err := b.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketUsers).Bucket([]byte(u.name)).DeleteBucket(u64(mb.id))
	})
	if err != nil {
		return diskError(err)
	}
	mb.deleted = true
	delete(u.boxes, name)
	return nil
}

func (b *backend) rename(u *user, from, to string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	from, to = canonicalBox(from), canonicalBox(to)
	mb := u.boxes[from]
	if mb == nil {
		return errNoMailbox
	}
	if to == "" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Empty mailbox name"}
	}
	if u.boxes[to] != nil {
		return errExists
	}
	err := b.update(func(tx *bolt.Tx) error {
		bb, err := boxBucket(tx, u, mb)
		if err != nil {
			return err
		}
		return putState(bb, mb, to, mb.uidNext, mb.subscribed)
	})
	if err != nil {
		return diskError(err)
	}
	mb.name = to
	u.boxes[to] = mb
	delete(u.boxes, from)
	return nil
}

func (b *backend) subscribe(u *user, name string, on bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	mb := u.boxes[canonicalBox(name)]
	if mb == nil {
		return errNoMailbox
	}
	err := b.update(func(tx *bolt.Tx) error {
		bb, err := boxBucket(tx, u, mb)
		if err != nil {
			return err
		}
		return putState(bb, mb, mb.name, mb.uidNext, on)
	})
	if err != nil {
		return diskError(err)
	}
	mb.subscribed = on
	return nil
}

// appendLocked adds the messages to mb, on disk first, and tells the
// sessions that have mb selected.
func (b *backend) appendLocked(tx *bolt.Tx, u *user, mb *mailbox, ms []*message, bodies [][]byte) error {
	if mb.deleted {
		return errGone
	}
	next := mb.uidNext
	for _, m := range ms {
		m.uid = next
		next++
	}
	if tx != nil {
		bb, err := boxBucket(tx, u, mb)
		if err != nil {
			return err
		}
		for i, m := range ms {
			if err := bb.Bucket(bucketBodies).Put(u32(uint32(m.uid)), bodies[i]); err != nil {
				return err
			}
			if err := putMsg(bb, m); err != nil {
				return err
			}
		}
		if err := putState(bb, mb, mb.name, next, mb.subscribed); err != nil {
			return err
		}
	} else {
		for i, m := range ms {
			m.buf = bodies[i]
		}
	}
	return nil
}

// commitAppend makes messages appended by appendLocked visible, once the
// transaction is committed.
func commitAppend(mb *mailbox, ms []*message) {
	if len(ms) == 0 {
		return
	}
	mb.msgs = append(mb.msgs, ms...)
	mb.uidNext = ms[len(ms)-1].uid + 1
	mb.tracker.QueueNumMessages(uint32(len(mb.msgs)))
}

// append adds a message to the mailbox name of u.
func (b *backend) append(u *user, name string, buf []byte, opt *imap.AppendOptions) (*imap.AppendData, error) {
	m := &message{t: opt.Time, size: int64(len(buf)), flags: flagSet(opt.Flags)}
	if m.t.IsZero() {
		m.t = b.now()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	mb := u.boxes[canonicalBox(name)]
	if mb == nil {
		return nil, errTryCreate
	}
	if err := b.inTx(func(tx *bolt.Tx) error { return b.appendLocked(tx, u, mb, []*message{m}, [][]byte{buf}) }); err != nil {
		return nil, err
	}
	commitAppend(mb, []*message{m})
	return &imap.AppendData{UIDValidity: mb.validity, UID: m.uid}, nil
}

// inTx runs fn in a transaction of the file, or with a nil one when there
// is no file; an error that is not an IMAP answer becomes diskError.
func (b *backend) inTx(fn func(tx *bolt.Tx) error) error {
	if b.db == nil {
		return answer(fn(nil))
	}
	return answer(b.db.Update(fn))
}

// answer is err as the client is told it: an IMAP answer as it is, any
// other error as diskError.
func answer(err error) error {
	var ie *imap.Error
	if err != nil && !errors.As(err, &ie) {
		return diskError(err)
	}
	return err
}

// body returns m's message, from memory or from the file.
func (b *backend) body(u *user, mb *mailbox, m *message) ([]byte, error) {
	if b.db == nil {
		return m.buf, nil
	}
	var out []byte
	err := b.db.View(func(tx *bolt.Tx) error {
		ub := tx.Bucket(bucketUsers).Bucket([]byte(u.name))
		if ub == nil {
			return errGone
		}
		bb := ub.Bucket(u64(mb.id))
		if bb == nil {
			return errGone
		}
		v := bb.Bucket(bucketBodies).Get(u32(uint32(m.uid)))
		if v == nil {
			return fmt.Errorf("message %d of %q has no body in the mail file", m.uid, mb.name)
		}
		out = slices.Clone(v)
		return nil
	})
	return out, err
}

// removeLocked deletes the messages of mb in the set from the file, in tx.
func removeLocked(tx *bolt.Tx, u *user, mb *mailbox, gone map[*message]bool) error {
	if tx == nil {
		return nil
	}
	bb, err := boxBucket(tx, u, mb)
	if err != nil {
		return err
	}
	for m := range gone {
		if err := bb.Bucket(bucketMsgs).Delete(u32(uint32(m.uid))); err != nil {
			return err
		}
		if err := bb.Bucket(bucketBodies).Delete(u32(uint32(m.uid))); err != nil {
			return err
		}
	}
	return nil
}

// commitRemove drops the messages from mb's index once the transaction is
// committed, and queues an EXPUNGE for each, from the last, so that each
// sequence number is right when it is read.
func commitRemove(mb *mailbox, gone map[*message]bool) {
	if len(gone) == 0 {
		return
	}
	kept := mb.msgs[:0:0]
	for i := len(mb.msgs) - 1; i >= 0; i-- {
		if gone[mb.msgs[i]] {
			mb.tracker.QueueExpunge(uint32(i) + 1)
		}
	}
	for _, m := range mb.msgs {
		if !gone[m] {
			kept = append(kept, m)
		}
	}
	mb.msgs = kept
}

// putFlagsLocked writes the flags of the messages to the file.
func putFlagsLocked(tx *bolt.Tx, u *user, mb *mailbox, ms []*message) error {
	if tx == nil || len(ms) == 0 {
		return nil
	}
	bb, err := boxBucket(tx, u, mb)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if err := putMsg(bb, m); err != nil {
			return err
		}
	}
	return nil
}

func (m *message) flagNames() []string {
	out := make([]string, len(m.flags))
	for i, f := range m.flags {
		out[i] = string(f)
	}
	return out
}

// flagList returns a copy of m's flags, for a response written without
// the lock.
func (m *message) flagList() []imap.Flag { return slices.Clone(m.flags) }

// has reports whether m has the flag f.
func (m *message) has(f imap.Flag) bool {
	_, ok := slices.BinarySearch(m.flags, canonicalFlag(f))
	return ok
}

// flagSet returns the flags lowercased, sorted and without repeats: a
// message's flags are kept so, as a slice, which takes less memory than a
// map for the one or two flags a message has.
func flagSet(fs []imap.Flag) []imap.Flag {
	if len(fs) == 0 {
		return nil
	}
	out := make([]imap.Flag, len(fs))
	for i, f := range fs {
		out[i] = canonicalFlag(f)
	}
	slices.Sort(out)
	return slices.Clip(slices.Compact(out))
}

// withFlags returns m's flags changed as STORE asks, and whether they
// differ from m's.
func (m *message) withFlags(s *imap.StoreFlags) ([]imap.Flag, bool) {
	var out []imap.Flag
	switch s.Op {
	case imap.StoreFlagsSet:
		out = flagSet(s.Flags)
	case imap.StoreFlagsAdd:
		out = flagSet(append(slices.Clone(m.flags), s.Flags...))
	case imap.StoreFlagsDel:
		gone := flagSet(s.Flags)
		for _, f := range m.flags {
			if _, ok := slices.BinarySearch(gone, f); !ok {
				out = append(out, f)
			}
		}
	}
	return out, !slices.Equal(out, m.flags)
}

func canonicalFlag(f imap.Flag) imap.Flag { return imap.Flag(strings.ToLower(string(f))) }
