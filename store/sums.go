package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	bolt "go.etcd.io/bbolt"
)

// bbolt keeps no checksum of its pages: one byte changed on the disk in a
// value, or in a key, is read as if it had been written so. The store
// keeps its own (schema version 9): the sums bucket holds, for every value
// of every other bucket, the CRC-32C of the value, and for every bucket
// with a sequence, the sequence; every write goes through put, del and
// nextSequence, which keep them in step in the same transaction. Verify
// and Check read both ways: every value has its sum and matches it, and
// every sum names a value that Get still finds.
//
// A sum's key is a kind ('v' a value, 's' a sequence) then the bucket's
// path and, for a value, its key, each part preceded by its length
// (uvarint): the keys of the log and the outbox are binary.

var bucketSums = []byte("sums")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func sumOf(v []byte) []byte {
	return binary.BigEndian.AppendUint32(nil, crc32.Checksum(v, castagnoli))
}

func sumKey(kind byte, path [][]byte, k []byte) []byte {
	out := []byte{kind}
	for _, p := range path {
		out = binary.AppendUvarint(out, uint64(len(p)))
		out = append(out, p...)
	}
	if kind == 'v' {
		out = binary.AppendUvarint(out, uint64(len(k)))
		out = append(out, k...)
	}
	return out
}

// parseSumKey undoes sumKey.
func parseSumKey(key []byte) (kind byte, path [][]byte, k []byte, err error) {
	if len(key) == 0 || key[0] != 'v' && key[0] != 's' {
		return 0, nil, nil, errors.New("not a sum's key")
	}
	kind, rest := key[0], key[1:]
	var parts [][]byte
	for len(rest) > 0 {
		n, w := binary.Uvarint(rest)
		if w <= 0 || n > uint64(len(rest)-w) {
			return 0, nil, nil, errors.New("not a sum's key")
		}
		parts = append(parts, rest[w:w+int(n)])
		rest = rest[w+int(n):]
	}
	if kind == 'v' {
		if len(parts) < 2 {
			return 0, nil, nil, errors.New("not a sum's key")
		}
		return kind, parts[:len(parts)-1], parts[len(parts)-1], nil
	}
	if len(parts) < 1 {
		return 0, nil, nil, errors.New("not a sum's key")
	}
	return kind, parts, nil, nil
}

// bucketAt returns the bucket at a path, or nil.
func bucketAt(tx *bolt.Tx, path [][]byte) *bolt.Bucket {
	if len(path) == 0 {
		return nil
	}
	b := tx.Bucket(path[0])
	for _, p := range path[1:] {
		if b == nil {
			return nil
		}
		b = b.Bucket(p)
	}
	return b
}

func path(names ...[]byte) [][]byte { return names }

// put writes k = v in the bucket at path, with its sum once the file has
// sums (its migrations before version 9 write without).
func put(tx *bolt.Tx, path [][]byte, k, v []byte) error {
	b := bucketAt(tx, path)
	if b == nil {
		return fmt.Errorf("the bucket %q is missing", bytes.Join(path, []byte("/")))
	}
	if err := b.Put(k, v); err != nil {
		return err
	}
	if sums := tx.Bucket(bucketSums); sums != nil {
		return sums.Put(sumKey('v', path, k), sumOf(v))
	}
	return nil
}

// del deletes k from the bucket at path, and its sum.
func del(tx *bolt.Tx, path [][]byte, k []byte) error {
	b := bucketAt(tx, path)
	if b == nil {
		return fmt.Errorf("the bucket %q is missing", bytes.Join(path, []byte("/")))
	}
	if err := b.Delete(k); err != nil {
		return err
	}
	if sums := tx.Bucket(bucketSums); sums != nil {
		return sums.Delete(sumKey('v', path, k))
	}
	return nil
}

// nextSequence takes the next number of the bucket at path, and keeps it.
func nextSequence(tx *bolt.Tx, path [][]byte) (uint64, error) {
	b := bucketAt(tx, path)
	if b == nil {
		return 0, fmt.Errorf("the bucket %q is missing", bytes.Join(path, []byte("/")))
	}
	n, err := b.NextSequence()
	if err != nil {
		return 0, err
	}
	if sums := tx.Bucket(bucketSums); sums != nil {
		return n, sums.Put(sumKey('s', path, nil), u64(n))
	}
	return n, nil
}

// resum makes the sums of everything in the file afresh: when it is made,
// and when it is migrated to version 9.
func resum(tx *bolt.Tx) error {
	if tx.Bucket(bucketSums) != nil {
		if err := tx.DeleteBucket(bucketSums); err != nil {
			return err
		}
	}
	sums, err := tx.CreateBucket(bucketSums)
	if err != nil {
		return err
	}
	var walk func(b *bolt.Bucket, path [][]byte) error
	walk = func(b *bolt.Bucket, path [][]byte) error {
		if n := b.Sequence(); n != 0 {
			if err := sums.Put(sumKey('s', path, nil), u64(n)); err != nil {
				return err
			}
		}
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(b.Bucket(k), append(path[:len(path):len(path)], k))
			}
			return sums.Put(sumKey('v', path, k), sumOf(v))
		})
	}
	return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		if bytes.Equal(name, bucketSums) {
			return nil
		}
		return walk(b, [][]byte{name})
	})
}

// checkSums checks every value and sequence against its sum, and every
// sum against what it names.
func (t *Tx) checkSums(r *CheckReport) {
	sums := t.tx.Bucket(bucketSums)
	if sums == nil {
		r.add("schema", "the bucket %q is missing", bucketSums)
		return
	}
	if n := sums.Sequence(); n != 0 {
		// Nothing numbers the sums: a sequence there was written on the disk.
		r.add("bucket sums", "its sequence is %d, where nothing writes one: it was changed on the disk", n)
	}
	values := 0
	t.tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		if !bytes.Equal(name, bucketSums) {
			values += t.checkBucketSums(r, sums, b, [][]byte{name})
		}
		return nil
	})
	// Every value found has its sum, each under its own key: the sums
	// are as many as the values, or some name a value lost. Only then are
	// they read one by one, to name it.
	var named int
	sums.ForEach(func(sk, _ []byte) error {
		if len(sk) > 0 && sk[0] == 'v' {
			named++
		}
		return nil
	})
	seqs := sums.Cursor()
	for sk, _ := seqs.Seek([]byte{'s'}); len(sk) > 0 && sk[0] == 's'; sk, _ = seqs.Next() {
		if _, path, _, err := parseSumKey(sk); err != nil || bucketAt(t.tx, path) == nil {
			r.add("sums", "the sum of a bucket's sequence, %x, names no bucket: a bucket is lost, or the sum was changed on the disk", sk)
		}
	}
	if named == values {
		return
	}
	t.findLost(r, sums)
	if r.OK() {
		r.add("sums", "%d sums for %d values", named, values)
	}
}

// checkBucketSums checks the sequence and every value of bucket b, at
// path, and of the buckets inside it, against their sums, and returns how
// many values it read. It reads every page of the file: the pages read
// are unmapped as it goes (release).
func (t *Tx) checkBucketSums(r *CheckReport, sums, b *bolt.Bucket, path [][]byte) int {
	want := sums.Get(sumKey('s', path, nil))
	if n := b.Sequence(); (want == nil && n != 0) || (want != nil && (len(want) != 8 || binary.BigEndian.Uint64(want) != n)) {
		r.add(where(path, nil), "the sequence of %s, %d, does not match its sum: it was changed on the disk", describePath(path), n)
	}
	values := 0
	b.ForEach(func(k, v []byte) error {
		if v == nil {
			if sub := b.Bucket(k); sub != nil {
				values += t.checkBucketSums(r, sums, sub, append(path[:len(path):len(path)], k))
				return nil
			}
		}
		values++
		t.s.release(t.tx, false)
		switch s := sums.Get(sumKey('v', path, k)); {
		case s == nil:
			r.add(where(path, k), "the key %q of %s has no sum: the key was changed on the disk, or written without the store", k, describePath(path))
		case !bytes.Equal(s, sumOf(v)):
			r.add(where(path, k), "the value of %q in %s does not match its sum: it was changed on the disk", k, describePath(path))
		}
		return nil
	})
	return values
}

// findLost names each value a sum names that is not in the store.
func (t *Tx) findLost(r *CheckReport, sums *bolt.Bucket) {
	sums.ForEach(func(sk, s []byte) error {
		kind, path, k, err := parseSumKey(sk)
		if err != nil {
			r.add("sums", "the key %x is not a sum's: it was changed on the disk", sk)
			return nil
		}
		if kind != 'v' {
			return nil
		}
		if b := bucketAt(t.tx, path); b == nil || b.Get(k) == nil && b.Bucket(k) == nil {
			r.add(where(path, k), "the key %q of %s is lost: its sum names it", k, describePath(path))
		}
		return nil
	})
}

// describePath names a bucket for a person.
func describePath(path [][]byte) string {
	if len(path) == 2 && bytes.Equal(path[0], bucketLog) {
		return fmt.Sprintf("the log of game %s", path[1])
	}
	return fmt.Sprintf("the bucket %q", bytes.Join(path, []byte("/")))
}

// where names what a key of a bucket belongs to, as Check's problems do.
func where(path [][]byte, k []byte) string {
	if len(path) == 0 {
		return "store"
	}
	switch b := string(path[0]); {
	case b == string(bucketLog) && len(path) > 1:
		return "game " + string(path[1])
	case k == nil:
		return "bucket " + b
	case b == string(bucketGames), b == string(bucketStates), b == string(bucketHeads), b == string(bucketSecrets):
		return "game " + string(k)
	case b == string(bucketOutbox), b == string(bucketQueue), b == string(bucketMailData):
		if len(k) == 8 {
			return fmt.Sprintf("mail %d", binary.BigEndian.Uint64(k))
		}
		return fmt.Sprintf("mail %x", k)
	case b == string(bucketProcessed):
		return "processed " + string(k)
	case b == string(bucketTournaments), b == string(bucketTourSecrets):
		return "tournament " + string(k)
	}
	return "bucket " + string(path[0])
}
