package mail

import (
	"bytes"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
)

// dkimAligned reports whether a raw mail carries a valid DKIM signature
// (RFC 6376) of the domain of its From address or of a domain above it, as
// DMARC's relaxed alignment has it. With require_dkim set, a mail without
// one is treated as forged: the token is then not the only proof of who
// wrote it.
func dkimAligned(raw []byte, from string, lookup func(string) ([]string, error)) bool {
	_, domain, ok := strings.Cut(strings.ToLower(from), "@")
	if !ok || domain == "" {
		return false
	}
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookup})
	if err != nil {
		return false
	}
	for _, v := range vs {
		d := strings.ToLower(v.Domain)
		if v.Err == nil && (d == domain || strings.HasSuffix(domain, "."+d)) {
			return true
		}
	}
	return false
}
