package mail_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"titm/mail"
)

// With require_dkim, a player's mail counts only with a valid DKIM
// signature of his address's domain: without one it is refused as forged,
// with one it is played.
func TestRequireDKIM(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true, extra: "require_dkim = true"})
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h := mail.NewHandler(w.cfg, quiet())
	h.LookupTXT = func(domain string) ([]string, error) {
		if domain != "s1._domainkey.test.example" {
			return nil, fmt.Errorf("no TXT record for %s", domain)
		}
		return []string{"v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)}, nil
	}
	sign := func(raw []byte, domain string) []byte {
		var b bytes.Buffer
		if err := dkim.Sign(&b, bytes.NewReader(raw), &dkim.SignOptions{Domain: domain, Selector: "s1", Signer: priv}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	now := time.Now()
	for i, p := range []string{german, allied} {
		raw, _ := message(p, "join", fmt.Sprintf("GAME %s\nTOKEN %s\nJOIN\n", w.game, w.tokens[p]))
		if out := w.handle(h, uint32(i+1), sign(raw, "test.example"), now); !strings.Contains(out, "joined") {
			t.Fatalf("a signed JOIN: %q", out)
		}
	}
	orders := fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\n", w.game, w.tokens[german])
	unsigned, _ := message(german, "orders", orders)
	if out := w.handle(h, 3, unsigned, now); !strings.Contains(out, "DKIM") {
		t.Errorf("an unsigned mail: %q", out)
	}
	other, _ := message(german, "orders", orders)
	if out := w.handle(h, 4, sign(other, "elsewhere.example"), now); !strings.Contains(out, "DKIM") {
		t.Errorf("a mail signed by another domain: %q", out)
	}
	tampered := sign(unsigned, "test.example")
	tampered = bytes.Replace(tampered, []byte("IMPULSE 16-1"), []byte("IMPULSE 16-2"), 1)
	if out := w.handle(h, 5, tampered, now); !strings.Contains(out, "DKIM") {
		t.Errorf("a signed mail changed after signing: %q", out)
	}
	if g := w.gameNow(); g.Next.String() != "G16-1" {
		t.Fatalf("a refused mail played %s", g.Next)
	}
	signed, _ := message(german, "orders", orders)
	if out := w.handle(h, 6, sign(signed, "test.example"), now); out != "played G16-1" {
		t.Errorf("a signed mail: %q", out)
	}
}
