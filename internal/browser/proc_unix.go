//go:build unix

package browser

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts Chromium in a process group of its own, so that
// killProcessGroup reaches the helper processes (renderers, GPU, utility)
// it starts, not only the browser process.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills Chromium and every process of its group.
func killProcessGroup(cmd *exec.Cmd) {
	// The group's id is the browser process's, as setProcessGroup made
	// it the group's leader. An error means it is already gone.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
