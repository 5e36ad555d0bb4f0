//go:build unix

package mail_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"titm/internal/daemon"
	"titm/mail"
	"titm/mail/internal/postfix"
)

// providersBlocks returns the configuration blocks of docs/providers.md.
func providersBlocks(t *testing.T) [][]byte {
	t.Helper()
	data, err := os.ReadFile("../docs/providers.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]byte
	for _, m := range regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllSubmatch(data, -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// TestProvidersDoc checks that every configuration block of
// docs/providers.md reads and passes the checks of titm serve, with its
// secrets in the environment and in files.
func TestProvidersDoc(t *testing.T) {
	blocks := providersBlocks(t)
	if len(blocks) < 5 {
		t.Fatalf("%d configuration blocks; want one for each of Gmail (two), Fastmail, Microsoft 365 and Postfix", len(blocks))
	}
	env := map[string]string{
		"TITM_IMAP_PASSWORD": "zqImapPass",
		"TITM_SMTP_PASSWORD": "zqSmtpPass",
	}
	// The files the blocks name, put in a directory of the test's; a CA
	// file holds a CA certificate, the others a secret.
	dir := t.TempDir()
	ca, _, _ := throwawayCA(t, t.TempDir())
	pem, err := os.ReadFile(ca)
	if err != nil {
		t.Fatal(err)
	}
	files := regexp.MustCompile(`"/etc/titm/([a-z_.-]+)"`)
	for i, b := range blocks {
		text := files.ReplaceAllFunc(b, func(m []byte) []byte {
			base := string(files.FindSubmatch(m)[1])
			content := []byte("zqSecret\n")
			if filepath.Ext(base) == ".pem" {
				content = pem
			}
			name := filepath.Join(dir, base)
			if err := os.WriteFile(name, content, 0o600); err != nil {
				t.Fatal(err)
			}
			return []byte(`"` + filepath.ToSlash(name) + `"`)
		})
		cfg, err := daemon.ParseConfig("providers.md", text, func(k string) string { return env[k] })
		if err != nil {
			t.Errorf("block %d:\n%s\n%v", i+1, b, err)
			continue
		}
		if cfg.IMAP.Auth == "oauth2" && cfg.OAuth2.RefreshToken != "zqSecret" {
			t.Errorf("block %d: the refresh token was not read from its file", i+1)
		}
	}
}

// TestProvidersSelfHosted runs the block of docs/providers.md for a Postfix
// and Dovecot of one's own, the last, against the private Postfix and
// Dovecot as titm serve --check --connect and serve do: only the host:port
// of each address is replaced by the harness's port of the same kind, and
// ca_file by the throwaway CA's file.
func TestProvidersSelfHosted(t *testing.T) {
	t.Parallel()
	blocks := providersBlocks(t)
	block := blocks[len(blocks)-1]
	dir := t.TempDir()
	ca, cert, key := throwawayCA(t, dir)
	const pass = "zqRefPass"
	env := func(k string) string {
		if k == "TITM_IMAP_PASSWORD" || k == "TITM_SMTP_PASSWORD" {
			return pass
		}
		return ""
	}
	caLine := regexp.MustCompile(`(?m)^ca_file = ".*"$`)
	if !caLine.Match(block) {
		t.Fatal("the block has no ca_file, which the harness's private CA needs")
	}
	block = caLine.ReplaceAll(block, []byte(fmt.Sprintf("ca_file = %q", ca)))
	doc, err := daemon.ParseConfig("providers.md", block, env)
	if err != nil {
		t.Fatal(err)
	}
	// The block's domain is the harness's, so that its addresses and
	// user names are used as they are.
	_, domain, _ := strings.Cut(doc.Referee.Address, "@")
	mta := postfix.Start(t, postfix.Options{Domain: domain, Users: map[string]string{doc.IMAP.Username: pass},
		CertFile: cert, KeyFile: key})
	ports := map[string]string{
		"993": mta.Dovecot.TLSAddr,   // IMAP, TLS from the start
		"143": mta.Dovecot.Addr,      // IMAP, STARTTLS
		"465": mta.SubmissionTLSAddr, // submission, TLS from the start
		"587": mta.SubmissionAddr,    // submission, STARTTLS
	}
	addr := regexp.MustCompile(`(?m)^address = "[^"@]+:([0-9]+)"$`)
	text := addr.ReplaceAllFunc(block, func(m []byte) []byte {
		port := string(addr.FindSubmatch(m)[1])
		a, ok := ports[port]
		if !ok {
			t.Fatalf("%s: the harness has no port like %s", m, port)
		}
		return []byte(fmt.Sprintf("address = %q", a))
	})
	cfg, err := daemon.ParseConfig("providers.md", text, env)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	t.Logf("the block as run:\n%s", text)

	var steps []string
	mail.CheckConnections(context.Background(), &cfg.Config, func(s mail.CheckStep) {
		steps = append(steps, s.String())
		if s.Err != nil {
			t.Errorf("%s", s)
		}
	})
	t.Logf("titm serve --check --connect:\n%s", strings.Join(steps, "\n"))
	// As serve connects: TLS with ca_file, then the login.
	if err := mail.DialIMAP(&cfg.IMAP); err != nil {
		t.Errorf("imap, as serve connects: %v", err)
	}
	if err := mail.DialSMTP(&cfg.SMTP); err != nil {
		t.Errorf("smtp, as serve connects: %v", err)
	}
}
