package main

import "syscall"

// syscallUmask sets the process's umask, so that the control socket is
// made readable by its owner only from its first moment.
func syscallUmask(mask int) int { return syscall.Umask(mask) }
