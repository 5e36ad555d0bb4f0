package journal

import (
	"html/template"
	"strings"
	"testing"

	"titm/adjudicator/lang"
)

// diceRowTemplate is the template the dice log's rows were written with:
// diceRows writes the same bytes, faster.
var diceRowTemplate = template.Must(template.New("rows").Parse(`{{range .Dice}}<tr{{if .RolledBack}} class="rolled"{{end}}>{{if $.Records}}<td class="n">{{.Record}}</td>{{end}}<td>{{.Impulse}}{{if .RolledBack}} (rolled back){{end}}</td><td class="n">{{.N}}</td><td>{{.Purpose}}</td><td class="n">{{.Value}}</td><td class="n">{{.Draw}}</td></tr>
{{end}}`))

// The dice log's rows are written as html/template writes them, escaping
// included, with and without the records' numbers.
func TestDiceRowsAsTemplate(t *testing.T) {
	awkward := []string{"", "16-2 demolition 51-70 by 28/110", `fire <b>"x"</b> & 'y' +1`, "nul \x00 here", "bad \xff utf-8",
		"Élsenborn — 🐅", "\u2028 line", "a+b<c>d&e'f\"g"}
	var dice []die
	for i, p := range awkward {
		dice = append(dice, die{Record: i * 7, Impulse: awkward[(i+3)%len(awkward)], N: i + 1, Purpose: p, Value: i%10 + 1,
			Draw: uint64(i) << 40, RolledBack: i%3 == 0})
	}
	for _, records := range []int{0, 12} {
		for _, ds := range [][]die{nil, dice[:1], dice} {
			var want strings.Builder
			if err := diceRowTemplate.Execute(&want, struct {
				Records int
				Dice    []die
			}{records, ds}); err != nil {
				t.Fatal(err)
			}
			if got := string(diceRows(lang.EN(), ds, records != 0)); got != want.String() {
				t.Errorf("records %d, %d dice:\n got  %q\n want %q", records, len(ds), got, want.String())
			}
		}
	}
}
