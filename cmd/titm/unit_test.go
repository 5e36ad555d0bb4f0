package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// requireSystemd names the variable that makes a missing systemd-analyze a
// failure rather than a skip, as CI sets it.
const requireSystemd = "TITM_REQUIRE_SYSTEMD"

// The service unit of docs/operating.md is docs/titm.service, has the
// settings the page promises, and systemd-analyze verify finds nothing
// wrong in it.
func TestServiceUnit(t *testing.T) {
	data, err := os.ReadFile("../../docs/titm.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := string(data)
	doc, err := os.ReadFile("../../docs/operating.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```ini\n"+unit+"```") {
		t.Error("docs/operating.md does not show docs/titm.service as it is")
	}
	for _, want := range []string{"User=titm", "StateDirectory=titm", "NoNewPrivileges=yes", "ProtectSystem=strict",
		"ProtectHome=yes", "PrivateTmp=yes", "Restart=on-failure", "TimeoutStopSec=", "ExecStart=/usr/local/bin/titm serve --config /etc/titm/titm.toml",
		"StartLimitIntervalSec=", "StartLimitBurst=", fmt.Sprintf("RestartPreventExitStatus=%d %d\n", exitDamagedStore, exitBadConfig),
		"PrivateUsers=yes", "ProtectProc=invisible", "ProcSubset=pid", "RemoveIPC=yes", "SystemCallFilter=~@privileged @resources"} {
		if !strings.Contains(unit, "\n"+want) {
			t.Errorf("the unit lacks %s", want)
		}
	}

	if i := strings.Index(unit, "[Service]"); !strings.Contains(unit[:i], "\nStartLimitBurst=") {
		t.Error("StartLimitBurst= is not in [Unit], where systemd reads it")
	}

	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv(requireSystemd) != "" {
			t.Fatalf("systemd-analyze is not installed (%s is set, so this fails rather than skips)", requireSystemd)
		}
		t.Skipf("systemd-analyze is not installed, so the unit is not verified (set %s=1 to fail instead)", requireSystemd)
	}
	// verify wants ExecStart's program to exist: this test's binary stands
	// in for titm.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "titm.service")
	os.WriteFile(path, []byte(strings.Replace(unit, "/usr/local/bin/titm", exe, 1)), 0o644)
	// verify exits 0 after a line it cannot parse, which it only reports:
	// anything it says is a failure.
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// serve refuses a wrong configuration with exitBadConfig, which the unit
// does not restart on, naming what is wrong; serve --check still exits 1,
// a check that found problems.
func TestServeRefusesBadConfig(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[nosuch]\n"), 0o600)
	for _, c := range []struct {
		args []string
		code int
		say  string
	}{
		{[]string{"serve", "--config", bad}, exitBadConfig, "titm serve does not start with a wrong configuration"},
		{[]string{"serve", "--config", bad + ".missing"}, exitBadConfig, "bad.toml.missing"},
		{[]string{"serve", "--check", "--config", bad}, exitProblems, "titm serve does not start with a wrong configuration"},
	} {
		code, out, errs := runT(t, c.args...)
		if code != c.code || !strings.Contains(out+errs, c.say) {
			t.Errorf("titm %s: exit %d, want %d saying %q\n%s%s", strings.Join(c.args, " "), code, c.code, c.say, out, errs)
		}
	}
}
