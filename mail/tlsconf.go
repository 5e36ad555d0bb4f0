package mail

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
)

// loadCAFile reads the PEM certificates of a private CA. Every block must be
// a certificate that parses, and there must be one at least, so that a
// wrong file is reported rather than leaving titm to trust nothing.
func loadCAFile(path string) (*x509.CertPool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the CA certificates: %w", err)
	}
	pool := x509.NewCertPool()
	n := 0
	for rest := data; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("%s holds a PEM block of type %q; it must hold CA certificates only", path, b.Type)
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: certificate %d: %w", path, n+1, err)
		}
		pool.AddCert(c)
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("%s holds no PEM certificate (a block beginning \"-----BEGIN CERTIFICATE-----\")", path)
	}
	return pool, nil
}

// clientTLS is the TLS configuration for connecting to the server at addr:
// its certificate must name addr's host and be signed by a CA the system
// trusts or, when caFile is given, by one of caFile's.
func clientTLS(addr, caFile string, skipVerify bool) (*tls.Config, error) {
	host, _, _ := net.SplitHostPort(addr)
	tc := &tls.Config{ServerName: host, InsecureSkipVerify: skipVerify}
	if caFile != "" {
		// Read at each connection, so that a renewed CA is taken up without
		// a restart; the file was checked when the configuration was read.
		pool, err := loadCAFile(caFile)
		if err != nil {
			return nil, err
		}
		tc.RootCAs = pool
	}
	return tc, nil
}

// certHint adds to a failed TLS handshake what the operator can do about
// it, for the certificate errors a private mail server typically gives;
// table is "imap" or "smtp".
func certHint(err error, table string) error {
	var host x509.HostnameError
	var authority x509.UnknownAuthorityError
	switch {
	case errors.As(err, &host):
		return fmt.Errorf("%w (the server's certificate does not name the host of %s.address: write the address with a name the certificate has)", err, table)
	case errors.As(err, &authority):
		return fmt.Errorf("%w (if the server's certificate comes from a private CA, give that CA's certificate in %s.ca_file)", err, table)
	}
	return err
}
