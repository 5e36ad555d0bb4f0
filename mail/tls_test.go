//go:build unix

package mail_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/internal/daemon"
	"titm/mail"
	"titm/mail/internal/postfix"
)

// throwawayCA writes to dir a CA certificate (ca.pem) and a server
// certificate it signs for 127.0.0.1 and mx.test.example (cert.pem,
// key.pem), and returns their paths.
func throwawayCA(t *testing.T, dir string) (ca, cert, key string) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "titm test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	srvTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "mx.test.example"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		DNSNames: []string{"mx.test.example"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(srvKey)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return write("ca.pem", "CERTIFICATE", caDER), write("cert.pem", "CERTIFICATE", srvDER), write("key.pem", "PRIVATE KEY", keyDER)
}

// Implicit TLS against Dovecot (IMAP, port-993 style) and Postfix
// (submission in wrapper mode, port-465 style) with a private CA: trusted
// through ca_file; refused, with a hint, without it; refused when the
// certificate does not name the host of the address.
func TestImplicitTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca, cert, key := throwawayCA(t, dir)
	mta := postfix.Start(t, postfix.Options{Domain: "test.example", Users: map[string]string{referee: "ref-pass"},
		CertFile: cert, KeyFile: key})
	config := func(imapAddr, smtpAddr, caLine string) *mail.Config {
		t.Helper()
		cfg, err := daemon.ParseConfig("test", []byte(fmt.Sprintf(`[referee]
address = %q
[imap]
address = %q
security = "tls"
username = %q
password = "ref-pass"
%s
[smtp]
address = %q
security = "tls"
%s
`, referee, imapAddr, referee, caLine, smtpAddr, caLine)), func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		return &cfg.Config
	}
	withCA := fmt.Sprintf("ca_file = %q", ca)
	localhost := func(addr string) string {
		_, port, _ := net.SplitHostPort(addr)
		return net.JoinHostPort("localhost", port)
	}
	for _, tt := range []struct {
		name               string
		imap, smtp, caLine string
		want               string // in both errors; empty for success
	}{
		{"private CA in ca_file", mta.Dovecot.TLSAddr, mta.SubmissionTLSAddr, withCA, ""},
		{"no ca_file", mta.Dovecot.TLSAddr, mta.SubmissionTLSAddr, "", "certificate signed by unknown authority (if the server's certificate comes from a private CA, give that CA's certificate in %s.ca_file)"},
		{"host not in the certificate", localhost(mta.Dovecot.TLSAddr), localhost(mta.SubmissionTLSAddr), withCA,
			"certificate is valid for mx.test.example, not localhost (the server's certificate does not name the host of %s.address"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config(tt.imap, tt.smtp, tt.caLine)
			for _, c := range []struct {
				table string
				err   error
			}{{"imap", mail.DialIMAP(&cfg.IMAP)}, {"smtp", mail.DialSMTP(&cfg.SMTP)}} {
				switch want := fmt.Sprintf(tt.want, c.table); {
				case tt.want == "" && c.err != nil:
					t.Errorf("%s: %v", c.table, c.err)
				case tt.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), want)):
					t.Errorf("%s: error %v, want one with %q", c.table, c.err, want)
				}
			}
		})
	}
}
