package store

import (
	"syscall"

	bolt "go.etcd.io/bbolt"
)

// unmapRead unmaps the pages of the file that the mapping holds, up to the
// end of the data as tx sees it (the mapping is longer): MADV_DONTNEED on
// a shared mapping of a file drops the process's view of the pages, not
// their contents, and the next read maps them again from the file.
func unmapRead(tx *bolt.Tx) {
	syscall.Syscall(syscall.SYS_MADVISE, tx.DB().Info().Data, uintptr(tx.Size()), syscall.MADV_DONTNEED)
}
