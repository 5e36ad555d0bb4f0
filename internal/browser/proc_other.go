//go:build !unix

package browser

import "os/exec"

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the browser process; its helpers notice that
// it is gone and exit.
func killProcessGroup(cmd *exec.Cmd) {
	_ = cmd.Process.Kill() // an error means it is already gone
}
