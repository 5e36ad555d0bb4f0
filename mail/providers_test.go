package mail

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestProvidersDoc checks that every configuration block of
// docs/providers.md reads and passes the checks of titm serve, with its
// secrets in the environment and in files.
func TestProvidersDoc(t *testing.T) {
	data, err := os.ReadFile("../docs/providers.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllSubmatch(data, -1)
	if len(blocks) < 5 {
		t.Fatalf("%d configuration blocks; want one for each of Gmail (two), Fastmail, Microsoft 365 and Postfix", len(blocks))
	}
	env := map[string]string{
		"TITM_IMAP_PASSWORD": "zqImapPass",
		"TITM_SMTP_PASSWORD": "zqSmtpPass",
	}
	// The files the blocks name, put in a directory of the test's.
	dir := t.TempDir()
	files := regexp.MustCompile(`"/etc/titm/([a-z_]+)"`)
	for i, b := range blocks {
		text := files.ReplaceAllFunc(b[1], func(m []byte) []byte {
			name := filepath.Join(dir, string(files.FindSubmatch(m)[1]))
			if err := os.WriteFile(name, []byte("zqSecret\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return []byte(`"` + filepath.ToSlash(name) + `"`)
		})
		cfg, err := ParseConfig("providers.md", text, func(k string) string { return env[k] })
		if err != nil {
			t.Errorf("block %d:\n%s\n%v", i+1, b[1], err)
			continue
		}
		if cfg.IMAP.Auth == "oauth2" && cfg.OAuth2.RefreshToken != "zqSecret" {
			t.Errorf("block %d: the refresh token was not read from its file", i+1)
		}
	}
}
