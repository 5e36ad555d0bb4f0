package rules_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"titm/internal/playtest"
	"titm/rules"
	"titm/rules/scenarios"
)

// randomDice rolls from a seeded generator: the same games every run.
type randomDice struct{ r *rand.Rand }

func (d randomDice) Roll(string) (int, error) { return d.r.IntN(10) + 1, nil }

// playedStates plays games of every shipped scenario with the scripted
// players, attacking, and returns every position they pass through.
func playedStates(t *testing.T, r *rand.Rand) map[*rules.State]*rules.Scenario {
	t.Helper()
	out := map[*rules.State]*rules.Scenario{}
	for _, name := range scenarios.Names {
		s := scenario(t, name)
		st := rules.NewState(s)
		out[st] = s
		for n := 0; !st.Over && n < 80; n++ {
			next, _, err := playtest.PlayEveryAttack(s, st, randomDice{r})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			st = next
			out[st] = s
		}
	}
	return out
}

// awkward are strings that json.Marshal escapes, each its own way.
var awkward = []string{"", "G", "plain text", `a "quoted" \ text`, "<b>&amp;</b>", "tab\there\nnew line\r\x00\x1f\x7f",
	"\b\f", "Élsenborn — Bütgenbach", "bad \xff\xfe utf-8", "line\u2028para\u2029", "emoji 🐅", "\u00a0"}

// mutate changes a copy of st at random in every field the JSON writes,
// with the values that are written differently: empty and nil, zero and
// negative, areas and zones, and strings to escape.
func mutate(r *rand.Rand, s *rules.Scenario, st *rules.State) *rules.State {
	c := st.Clone()
	pick := func() string { return awkward[r.IntN(len(awkward))] }
	place := func() rules.Place {
		switch r.IntN(4) {
		case 0:
			return rules.Place{}
		case 1:
			return rules.ZonePlace(string(rune('A' + r.IntN(16))))
		case 2:
			return rules.AreaPlace(r.IntN(999) + 1)
		}
		return rules.Place{Area: r.IntN(3000) - 1000, Zone: []string{"", "Q", "AB", "<"}[r.IntN(4)]}
	}
	imp := func() rules.Impulse {
		return rules.Impulse{Side: []rules.Side{rules.German, rules.Allied, "", "x"}[r.IntN(4)], Day: r.IntN(40) - 5, N: r.IntN(5) - 1}
	}
	if r.IntN(3) == 0 {
		standing := []string{"BLOW ALL", "BLOW NONE", "DEFEND PREFER ARMOR INFANTRY"}
		side := []rules.Side{rules.German, rules.Allied}[r.IntN(2)]
		o, err := rules.ParseOrders(standing[r.IntN(len(standing))], s, &rules.ParseOptions{Side: side})
		if err == nil {
			if next, err := rules.ApplyStanding(st, side, o); err == nil {
				c.Standing = next.Standing
			}
		}
		switch r.IntN(6) {
		case 0:
			c.Standing = nil
		case 1:
			c.Standing = map[rules.Side]*rules.Standing{}
		case 2:
			c.Standing[rules.Side(pick())] = nil
		}
	}
	if r.IntN(3) == 0 {
		c.Scenario = pick()
	}
	if r.IntN(3) == 0 {
		c.Result = pick()
	}
	if r.IntN(3) == 0 {
		c.Over = !c.Over
	}
	if r.IntN(3) == 0 {
		c.VP = r.IntN(200) - 100
	}
	if r.IntN(3) == 0 {
		c.Next = imp()
	}
	for _, u := range c.Units {
		if r.IntN(4) != 0 {
			continue
		}
		u.Strength = r.IntN(30) - 10
		u.Place, u.TurnStart = place(), place()
		u.Arrived, u.Eliminated, u.Entrenched = r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0
		u.Moved, u.Attacked, u.Stayed = r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0
		u.Dismounted, u.InSupply, u.Exited, u.Bridging = r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0
		if r.IntN(10) == 0 {
			u.ID = pick()
		}
	}
	switch r.IntN(8) {
	case 0:
		c.Units = nil
	case 1:
		c.Units = []*rules.UnitState{}
	case 2:
		if len(c.Units) > 0 {
			c.Units[r.IntN(len(c.Units))] = nil
		}
	}
	for i := range c.Bridges {
		if r.IntN(4) == 0 {
			c.Bridges[i] = rules.BridgeState{A: r.IntN(2000) - 500, B: r.IntN(999), Blown: r.IntN(2) == 0, RepairFailures: r.IntN(5) - 1}
		}
	}
	switch r.IntN(6) {
	case 0:
		c.Bridges = nil
	case 1:
		c.Bridges = []rules.BridgeState{}
	}
	switch r.IntN(6) {
	case 0:
		c.Control = nil
	case 1:
		c.Control = map[int]rules.Side{}
	case 2:
		for range 20 {
			c.Control[r.IntN(4000)-1000] = []rules.Side{rules.German, rules.Allied, "", rules.Side(pick())}[r.IntN(4)]
		}
	}
	strs := func() []string {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		out := make([]string, r.IntN(4)+1)
		for i := range out {
			out[i] = pick()
		}
		return out
	}
	if r.IntN(2) == 0 {
		c.Released = strs()
	}
	if r.IntN(2) == 0 {
		switch r.IntN(3) {
		case 0:
			c.ReleasedAt = nil
		case 1:
			c.ReleasedAt = map[string]rules.Impulse{}
		default:
			c.ReleasedAt = map[string]rules.Impulse{}
			for range r.IntN(5) + 1 {
				c.ReleasedAt[pick()] = imp()
			}
		}
	}
	if r.IntN(2) == 0 {
		c.SFUsed = strs()
	}
	if r.IntN(2) == 0 {
		switch r.IntN(3) {
		case 0:
			c.SFDays = nil
		case 1:
			c.SFDays = []int{}
		default:
			c.SFDays = []int{r.IntN(30), -r.IntN(30), 0}
		}
	}
	if r.IntN(2) == 0 {
		if r.IntN(3) == 0 {
			c.SF = nil
		} else {
			c.SF = &rules.SFCounter{Area: r.IntN(999) - 1, Effect: pick(), Battle: r.IntN(3) - 1, Placed: imp()}
		}
	}
	return c
}

// AppendJSON writes what json.Marshal writes, byte for byte: the position's
// digest in every log is of those bytes. Every position of games of every
// scenario, and thousands of them changed at random in every field, with
// strings to escape, nil and empty lists and maps, and places and impulses
// no game reaches.
func TestAppendJSONMatchesMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 2))
	states := playedStates(t, r)
	check := func(what string, st *rules.State) {
		t.Helper()
		want, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.AppendJSON(nil); !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			lo := max(i-80, 0)
			t.Fatalf("%s: AppendJSON differs from json.Marshal at byte %d:\n got  %s\n want %s", what, i,
				got[lo:min(i+80, len(got))], want[lo:min(i+80, len(want))])
		}
	}
	n := 0
	for st, s := range states {
		check(st.Scenario+" "+st.Next.String(), st)
		for range 20 {
			check("changed", mutate(r, s, st))
			n++
		}
	}
	check("nil", nil)
	check("zero", &rules.State{})
	// Appended, not overwritten.
	if got := (&rules.State{}).AppendJSON([]byte("x")); got[0] != 'x' {
		t.Errorf("AppendJSON overwrote its buffer: %q", got[:10])
	}
	t.Logf("%d positions played, %d changed", len(states), n)
}

// AppendJSON knows every field of the state by name: a field added to the
// state must be added to it as well, or the new field would be missing
// from the digests. This lists the JSON names it writes; a change to the
// types fails here, before any digest differs.
func TestAppendJSONKnowsEveryField(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []string
	}{
		{rules.State{}, []string{"scenario", "next", "over", "result,omitempty", "vp", "units", "bridges", "control", "released,omitempty",
			"released_at,omitempty", "standing", "special_forces,omitempty", "sf_used,omitempty", "sf_days,omitempty", "-unit"}},
		{rules.UnitState{}, []string{"id", "strength", "place,omitzero", "arrived,omitempty", "eliminated,omitempty", "entrenched,omitempty",
			"moved,omitempty", "attacked,omitempty", "stayed,omitempty", "dismounted,omitempty", "in_supply,omitempty", "exited,omitempty",
			"bridging,omitempty", "turn_start,omitzero"}},
		{rules.BridgeState{}, []string{"a", "b", "blown", "repair_failures"}},
		{rules.SFCounter{}, []string{"area", "effect", "battle,omitempty", "placed"}},
		{rules.Place{}, []string{"-Area", "-Zone", "-bad"}}, // written by MarshalText
	} {
		typ := reflect.TypeOf(c.v)
		var got []string
		for f := range typ.Fields() {
			tag := f.Tag.Get("json")
			if tag == "" {
				tag = "-" + f.Name
			}
			got = append(got, tag)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("the fields of %s are\n %q\nand AppendJSON writes\n %q\nchange AppendJSON (and this list) with the type", typ, got, c.want)
		}
	}
}

// BenchmarkStateJSON compares AppendJSON with json.Marshal on the campaign's
// starting position.
func BenchmarkStateJSON(b *testing.B) {
	st := rules.NewState(scenario(b, "campaign"))
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf = st.AppendJSON(buf[:0])
		}
		b.SetBytes(int64(len(buf)))
	})
	b.Run("Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(st); err != nil {
				b.Fatal(err)
			}
		}
	})
}
