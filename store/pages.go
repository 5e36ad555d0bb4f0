package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
)

// bbolt trusts its file: a page it reads is taken as it says it is, and a
// file cut short or a page header damaged makes it read past the end of
// its memory map (SIGBUS) or fail an assertion (a panic). So the store
// reads the file's pages itself, every length and page number checked
// against the page's bounds, before bbolt is given it: at Open the meta
// pages and the file's size, in Verify and Check every page reachable.
//
// The layout is bbolt's (version 2 of its format), in the machine's byte
// order, which on every platform titm runs on is little-endian:
//
//	page header  id u64, flags u16, count u16, overflow u32 (16 bytes)
//	meta         magic u32, version u32, page size u32, flags u32,
//	             root bucket (root u64, sequence u64), freelist u64,
//	             high-water mark u64, txid u64, checksum u64 (FNV-64a of
//	             what comes before it)
//	branch elem  pos u32, ksize u32, pgid u64 (16 bytes; pos from the elem)
//	leaf elem    flags u32, pos u32, ksize u32, vsize u32 (16 bytes)
//	bucket value root u64, sequence u64, and when root is 0 the bucket's
//	             only page inline after them

const (
	pageHeader  = 16
	elemSize    = 16
	metaSize    = 64
	boltMagic   = 0xED0CDAED
	boltVersion = 2
	noFreelist  = ^uint64(0)

	flagBranch   = 0x01
	flagLeaf     = 0x02
	flagMeta     = 0x04
	flagFreelist = 0x10
	flagBucket   = 0x01 // of a leaf element
)

var le = binary.LittleEndian

// fileMeta is what one of the two meta pages says.
type fileMeta struct {
	page     int // 0 or 1
	pageSize int
	root     uint64
	freelist uint64
	pgid     uint64 // the high-water mark: the pages in use are below it
	txid     uint64
}

// parseMeta reads a meta page's contents (after its page header) and
// checks them as bbolt does: magic, version, checksum.
func parseMeta(b []byte, page int) (*fileMeta, error) {
	if len(b) < metaSize {
		return nil, errors.New("cut short")
	}
	switch {
	case le.Uint32(b[0:]) != boltMagic:
		return nil, errors.New("not a bbolt meta page")
	case le.Uint32(b[4:]) != boltVersion:
		return nil, fmt.Errorf("bbolt format version %d, not %d", le.Uint32(b[4:]), boltVersion)
	}
	h := fnv.New64a()
	h.Write(b[:56])
	if h.Sum64() != le.Uint64(b[56:]) {
		return nil, errors.New("its checksum does not match")
	}
	m := &fileMeta{page: page, pageSize: int(le.Uint32(b[8:])), root: le.Uint64(b[16:]),
		freelist: le.Uint64(b[32:]), pgid: le.Uint64(b[40:]), txid: le.Uint64(b[48:])}
	switch {
	case m.pageSize < 512 || m.pageSize > 1<<20 || m.pageSize&(m.pageSize-1) != 0:
		return nil, fmt.Errorf("a page size of %d bytes", m.pageSize)
	case m.pgid < 4 || m.pgid > 1<<40:
		return nil, fmt.Errorf("a high-water mark of %d pages", m.pgid)
	case m.root < 2 || m.root >= m.pgid:
		return nil, fmt.Errorf("the root page %d, outside the %d pages in use", m.root, m.pgid)
	case m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pgid):
		return nil, fmt.Errorf("the freelist page %d, outside the %d pages in use", m.freelist, m.pgid)
	}
	return m, nil
}

// readMetas reads both meta pages, and what is wrong with each that is
// not valid.
func readMetas(f io.ReaderAt, size int64) (metas [2]*fileMeta, bad [2]error) {
	// Page 0 is at offset 0; page 1 is one page size further, and the
	// page size is read from page 0, or, when page 0 is damaged, tried.
	buf := make([]byte, pageHeader+metaSize)
	read := func(off int64, page int) (*fileMeta, error) {
		if off+int64(len(buf)) > size {
			return nil, errors.New("beyond the end of the file")
		}
		if _, err := f.ReadAt(buf, off); err != nil {
			return nil, err
		}
		return parseMeta(buf[pageHeader:], page)
	}
	metas[0], bad[0] = read(0, 0)
	if metas[0] != nil {
		metas[1], bad[1] = read(int64(metas[0].pageSize), 1)
	} else {
		bad[1] = errors.New("not found")
		for ps := int64(512); ps <= 1<<16; ps *= 2 {
			if m, err := read(ps, 1); err == nil && int64(m.pageSize) == ps {
				metas[1], bad[1] = m, nil
				break
			}
		}
	}
	return metas, bad
}

// latest is the meta page bbolt uses: the valid one of the higher
// transaction id.
func latest(metas [2]*fileMeta) *fileMeta {
	var use *fileMeta
	for _, m := range metas {
		if m != nil && (use == nil || m.txid > use.txid) {
			use = m
		}
	}
	return use
}

// pageWalker reads every page reachable from a meta page, each length and
// page number checked, and says which is damaged and how.
type pageWalker struct {
	f     io.ReaderAt
	meta  *fileMeta
	used  []uint8 // by page: 0 unseen, 1 in use, 2 free
	probs []Problem
}

// maxProblems caps what a walk reports: a store with thousands of
// damaged pages needs its backup, not a list of each.
const maxProblems = 50

func (w *pageWalker) damaged(id uint64, format string, args ...any) {
	if len(w.probs) < maxProblems {
		w.probs = append(w.probs, Problem{Where: fmt.Sprintf("page %d", id), What: "damaged: " + fmt.Sprintf(format, args...)})
	}
}

// walk checks every page: the tree of every bucket, the freelist, and
// that each page below the high-water mark is either in use once or free.
func (w *pageWalker) walk() []Problem {
	m := w.meta
	w.used = make([]uint8, m.pgid)
	w.used[0], w.used[1] = 1, 1
	if m.freelist != noFreelist {
		w.freelist(m.freelist)
	}
	w.tree(m.root, 0, nil, nil, 0)
	if m.freelist != noFreelist && len(w.probs) == 0 {
		for id, u := range w.used {
			if u == 0 {
				w.damaged(uint64(id), "neither in use nor free: a page of the file is lost")
			}
		}
	}
	return w.probs
}

// page reads a page and its overflow, and marks them in use.
func (w *pageWalker) page(id uint64, want uint16) []byte {
	ps := w.meta.pageSize
	if id < 2 || id >= w.meta.pgid {
		w.damaged(id, "a page outside the %d pages in use is named", w.meta.pgid)
		return nil
	}
	b := make([]byte, ps)
	if _, err := w.f.ReadAt(b, int64(id)*int64(ps)); err != nil {
		w.damaged(id, "it cannot be read: %v", err)
		return nil
	}
	hid, flags, over := le.Uint64(b), le.Uint16(b[8:]), uint64(le.Uint32(b[12:]))
	switch {
	case hid != id:
		w.damaged(id, "its header calls it page %d", hid)
		return nil
	case flags&want == 0 || (flags != flagBranch && flags != flagLeaf && flags != flagFreelist):
		w.damaged(id, "its header has the type/flags %#x where a %s page belongs", flags, typeName(want))
		return nil
	case id+over >= w.meta.pgid:
		w.damaged(id, "it says it runs on for %d more pages, past the %d in use", over, w.meta.pgid)
		return nil
	}
	for i := id; i <= id+over; i++ {
		if w.used[i] != 0 {
			w.damaged(i, "it is named twice (%s)", map[uint8]string{1: "in use twice", 2: "in use and free"}[w.used[i]])
			return nil
		}
		w.used[i] = 1
	}
	if over > 0 {
		full := make([]byte, int(over+1)*ps)
		if _, err := w.f.ReadAt(full, int64(id)*int64(ps)); err != nil {
			w.damaged(id, "it cannot be read: %v", err)
			return nil
		}
		b = full
	}
	return b
}

func typeName(want uint16) string {
	switch want {
	case flagFreelist:
		return "freelist"
	case flagLeaf:
		return "leaf"
	}
	return "branch or leaf"
}

// freelist marks the free pages.
func (w *pageWalker) freelist(id uint64) {
	b := w.page(id, flagFreelist)
	if b == nil {
		return
	}
	count, start := uint64(le.Uint16(b[10:])), pageHeader
	if count == 0xFFFF {
		count, start = le.Uint64(b[pageHeader:]), pageHeader+8
	}
	if count > uint64(len(b)-start)/8 {
		w.damaged(id, "the freelist counts %d pages, more than it holds", count)
		return
	}
	for i := range count {
		f := le.Uint64(b[start+int(i)*8:])
		switch {
		case f < 2 || f >= w.meta.pgid:
			w.damaged(id, "the freelist names page %d, outside the %d pages in use", f, w.meta.pgid)
		case w.used[f] != 0:
			w.damaged(f, "it is both free and in use, or free twice")
		default:
			w.used[f] = 2
		}
	}
}

// tree checks the B+tree of a bucket rooted at page id: every key in it
// is >= lo and < hi (nil: unbounded), and sorted.
func (w *pageWalker) tree(id, parent uint64, lo, hi []byte, depth int) {
	if depth > 64 {
		w.damaged(id, "the tree is deeper than any store's")
		return
	}
	b := w.page(id, flagBranch|flagLeaf)
	if b == nil {
		return
	}
	if le.Uint16(b[8:]) == flagBranch {
		w.branch(id, b, parent, lo, hi, depth)
		return
	}
	w.leaf(id, b, parent, lo, hi, depth)
}

// elems returns a page's count and checks its elements fit in it.
func (w *pageWalker) elems(id uint64, b []byte) (int, bool) {
	n := int(le.Uint16(b[10:]))
	if pageHeader+n*elemSize > len(b) {
		w.damaged(id, "it counts %d elements, more than it holds", n)
		return 0, false
	}
	return n, true
}

// slice returns b[off:off+n], or false when it is outside b.
func slice(b []byte, off, n uint64) ([]byte, bool) {
	if off > uint64(len(b)) || n > uint64(len(b))-off {
		return nil, false
	}
	return b[off : off+n], true
}

func (w *pageWalker) branch(id uint64, b []byte, parent uint64, lo, hi []byte, depth int) {
	n, ok := w.elems(id, b)
	if !ok {
		return
	}
	if n == 0 {
		w.damaged(id, "a branch page without elements")
		return
	}
	keys := make([][]byte, n)
	kids := make([]uint64, n)
	for i := range n {
		e := pageHeader + i*elemSize
		pos, ksize := uint64(le.Uint32(b[e:])), uint64(le.Uint32(b[e+4:]))
		k, ok := slice(b, uint64(e)+pos, ksize)
		if !ok || ksize == 0 {
			w.damaged(id, "element %d's key (at %d, %d bytes) is outside the page", i, pos, ksize)
			return
		}
		if !w.order(id, parent, i, k, keys, lo, hi) {
			return
		}
		keys[i], kids[i] = k, le.Uint64(b[e+8:])
	}
	for i, kid := range kids {
		next := hi
		if i+1 < n {
			next = keys[i+1]
		}
		w.tree(kid, id, keys[i], next, depth+1)
	}
}

// order checks key i of a page against the one before and the page's
// bounds.
func (w *pageWalker) order(id, parent uint64, i int, k []byte, keys [][]byte, lo, hi []byte) bool {
	switch {
	case i > 0 && bytes.Compare(keys[i-1], k) >= 0:
		w.damaged(id, "element %d's key %q is not after the one before, %q", i, k, keys[i-1])
	case lo != nil && bytes.Compare(k, lo) < 0:
		w.damaged(id, "element %d's key %q is before %q, the key its parent page %d has for it (this page or page %d is damaged)", i, k, lo, parent, parent)
	case hi != nil && bytes.Compare(k, hi) >= 0:
		w.damaged(id, "element %d's key %q is not before %q, the key its parent page %d has for the next page (this page or page %d is damaged)", i, k, hi, parent, parent)
	default:
		return true
	}
	return false
}

// leaf checks a leaf page (or an inline bucket's page, id 0) and the
// buckets in it.
func (w *pageWalker) leaf(id uint64, b []byte, parent uint64, lo, hi []byte, depth int) {
	n, ok := w.elems(id, b)
	if !ok {
		return
	}
	keys := make([][]byte, n)
	for i := range n {
		e := pageHeader + i*elemSize
		flags, pos := le.Uint32(b[e:]), uint64(le.Uint32(b[e+4:]))
		ksize, vsize := uint64(le.Uint32(b[e+8:])), uint64(le.Uint32(b[e+12:]))
		kv, ok := slice(b, uint64(e)+pos, ksize+vsize)
		switch {
		case !ok || ksize == 0:
			w.damaged(id, "element %d's key and value (at %d, %d and %d bytes) are outside the page", i, pos, ksize, vsize)
			return
		case flags&^flagBucket != 0:
			w.damaged(id, "element %d has the flags %#x", i, flags)
			return
		}
		k, v := kv[:ksize], kv[ksize:]
		if !w.order(id, parent, i, k, keys, lo, hi) {
			return
		}
		keys[i] = k
		if flags&flagBucket != 0 {
			w.bucket(id, k, v, depth)
		}
	}
}

// bucket checks a bucket's value: its root page's tree, or its inline page.
func (w *pageWalker) bucket(id uint64, name, v []byte, depth int) {
	if len(v) < 16 {
		w.damaged(id, "the bucket %q has a value of %d bytes", name, len(v))
		return
	}
	if root := le.Uint64(v); root != 0 {
		w.tree(root, id, nil, nil, depth+1)
		return
	}
	in := v[16:]
	// An inline page's id is not kept; its flags are read.
	if len(in) < pageHeader || le.Uint16(in[8:]) != flagLeaf {
		w.damaged(id, "the bucket %q kept in the page is not a leaf", name)
		return
	}
	w.leaf(id, in, id, nil, nil, depth+1)
}
