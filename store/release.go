package store

import (
	"time"

	bolt "go.etcd.io/bbolt"
)

// bbolt reads the file through a shared read-only mapping: every page a
// transaction reads becomes part of the process's resident size, and the
// kernel maps besides the pages around it that its cache holds (a fault
// maps up to 16), so that handling 200 mails over a file of 1,000 campaign
// games kept some 25 MB of the file resident in the daemon, and listing
// every game (Games) 10 MB. Those pages are the kernel's file cache, clean:
// the next fault maps them again from the cache, or reads them again from
// the disk if the kernel dropped them meanwhile. The store unmaps them
// after its reads (release), so that the daemon's resident size is what
// it holds, not what it has read; the file cache is the kernel's to keep
// or drop, as for any file.

// releaseEvery is how often at most reads unmap the pages: after each
// release the next reads fault in again the pages every transaction reads
// (the meta pages, the roots and branches of the buckets), which took a
// daemon busy with pictures 7 % of its CPU when it released every 100 ms,
// and 1 % every second; a busy web journal runs hundreds of reads a
// second.
const releaseEvery = time.Second

// releaseBatch is how many records a read of a whole bucket (Games) reads
// between two releases.
const releaseBatch = 64

// epoch is the origin of Store.released, on the monotonic clock.
var epoch = time.Now()

// release unmaps the pages of the file the process has read, at most once
// every releaseEvery unless force is set. It runs inside a read
// transaction, which keeps the mapping in place: bbolt maps the file anew,
// when it grows, only while no read transaction is open.
func (s *Store) release(tx *bolt.Tx, force bool) {
	if s == nil || tx.Writable() {
		return
	}
	now := int64(time.Since(epoch))
	last := s.released.Load()
	if !force && now-last < int64(releaseEvery) {
		return
	}
	if !s.released.CompareAndSwap(last, now) && !force {
		return // another reader releases them now
	}
	unmapRead(tx)
}
