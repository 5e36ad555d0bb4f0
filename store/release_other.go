//go:build !linux

package store

import bolt "go.etcd.io/bbolt"

// unmapRead does nothing where MADV_DONTNEED may not drop the pages of a
// shared mapping at once.
func unmapRead(*bolt.Tx) {}
