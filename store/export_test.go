package store

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// Meaning returns a digest of everything the store holds, as bbolt
// decodes it: every key and value of every bucket, in order, and every
// bucket's sequence; every key found by iterating is looked up by Get too.
// The corruption test compares it before and after a change of the file.
func (s *Store) Meaning() (string, error) {
	h := sha256.New()
	w := func(b []byte) {
		h.Write(binary.AppendUvarint(nil, uint64(len(b))))
		h.Write(b)
	}
	err := s.View(func(tx *Tx) error {
		var walk func(b *bolt.Bucket)
		walk = func(b *bolt.Bucket) {
			h.Write(binary.AppendUvarint([]byte{'s'}, b.Sequence()))
			b.ForEach(func(k, v []byte) error {
				w(k)
				if v == nil {
					if sub := b.Bucket(k); sub != nil {
						h.Write([]byte{'b'})
						walk(sub)
						h.Write([]byte{'e'})
						return nil
					}
				}
				w(v)
				w(b.Get(k))
				return nil
			})
		}
		return tx.tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			w(name)
			walk(b)
			return nil
		})
	})
	return fmt.Sprintf("%x", h.Sum(nil)), err
}

// LivePages returns the pages in use (not free), found as Verify walks
// them; page 0 and 1 are the meta pages.
func LivePages(path string) ([]int, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	metas, _ := readMetas(f, fi.Size())
	m := latest(metas)
	if m == nil {
		return nil, 0, fmt.Errorf("no meta page")
	}
	w := &pageWalker{f: f, meta: m}
	if p := w.walk(); len(p) > 0 {
		return nil, 0, fmt.Errorf("%v", p)
	}
	var live []int
	for id, u := range w.used {
		if u == 1 {
			live = append(live, id)
		}
	}
	return live, m.pageSize, nil
}

// AsOlderQueue writes a queued mail's entry in the queue's index as a titm
// of schema version 9 before the entries named the mail's snapshot: empty.
func (t *Tx) AsOlderQueue(id uint64) error {
	return put(t.tx, path(bucketQueue), u64(id), nil)
}

// ReleaseEvery is how often at most reads unmap the pages of the file.
const ReleaseEvery = releaseEvery
