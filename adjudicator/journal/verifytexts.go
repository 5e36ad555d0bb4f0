package journal

import (
	"encoding/json"
	"fmt"

	"titm/adjudicator/lang"
)

// The sentences of the verifier's script have a catalog of their own,
// verify.toml, with the verifier's verdicts (internal/webverify), which
// they frame.

// slot is an argument of a sentence that the page's script fills in: it
// prints as {n}, the script's n-th argument, whatever the verb, so that
// a translation that takes its arguments in another order (%[2]s) still
// gives each its place.
type slot int

// Format prints the slot as {n}.
func (s slot) Format(f fmt.State, _ rune) { fmt.Fprintf(f, "{%d}", int(s)) }

// verifyTexts are the sentences of the verifier's script (verify.js) in
// the printer's language, by name, as JSON: what the script says around
// the verdict, which the verifier itself words in the same language.
func verifyTexts(p *lang.Printer) string {
	texts := map[string]string{
		"verified":    p.Sprintf("Verified in your browser (%s): %s", slot(0), slot(1)),
		"notVerified": p.Sprintf("NOT verified in your browser (%s): %s", slot(0), slot(1)),
		"head":        p.Sprintf("The head of the log, as the verifier computed it from the records: %s. Compare it with the log head in the last mail you received of it.", slot(0)),
		"headFound":   p.Sprintf("The head of the log, as the verifier computed it from the records: %s. The head you gave is a record's hash of this log.", slot(0)),
		"game":        p.Sprintf("game %s: %d records, checked in %d ms (the verifier loaded in %d ms).", slot(0), slot(1), slot(2), slot(3)),
		"tournament":  p.Sprintf("tournament %s: %d records, checked in %d ms (the verifier loaded in %d ms).", slot(0), slot(1), slot(2), slot(3)),
		"checked":     p.Sprintf("Checked in %d ms (the verifier loaded in %d ms).", slot(0), slot(1)),
		"loading":     p.Sprintf("Loading the verifier…"),
		"verifying":   p.Sprintf("Verifying %s…", slot(0)),
		"failed":      p.Sprintf("The verifier could not run: %s", slot(0)),
		"notLoaded":   p.Sprintf("the verifier could not be loaded: HTTP status %d", slot(0)),
		"notStarted":  p.Sprintf("the verifier did not start"),
		"notFetched":  p.Sprintf("the export could not be fetched: HTTP status %d", slot(0)),
		"export":      p.Sprintf("the journal's export"),
		"file":        p.Sprintf("the file %s", slot(0)),
	}
	b, err := json.Marshal(texts)
	if err != nil {
		// A map of strings always marshals.
		panic(err)
	}
	return string(b)
}
