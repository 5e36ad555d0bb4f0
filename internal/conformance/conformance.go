// Package conformance runs the rules conformance cases: small files, one per
// case, that each set a position, play one or more impulses with given orders
// and dice, and state what must come of it. The format is in
// docs/conformance.md; the cases are in testdata/conformance.
package conformance

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"titm/adjudicator"
	"titm/rules"
	"titm/rules/scenarios"
)

// A Case is one conformance case as written in its file.
type Case struct {
	File        string          `toml:"-"`
	Rule        string          `toml:"rule"` // the rulebook's row the case is about, as "8.26" or "scenario intro"
	Also        []string        `toml:"also"` // other rows it exercises
	Title       string          `toml:"title"`
	Description string          `toml:"description"`
	Scenario    string          `toml:"scenario"` // a shipped scenario's name or a file relative to the case
	Position    *rules.Position `toml:"position"`
	Impulses    []Impulse       `toml:"impulse"`
	Expect      *Expect         `toml:"expect"` // after the last impulse

	lines *rules.TOMLLines
}

// An Impulse is one impulse of a case: the orders of the side to move, the
// dice in the order they are rolled, and what must come of it.
type Impulse struct {
	// Orders are written as a player writes them; SIDE german|allied lines
	// switch side, so the other side can give standing orders (BLOW,
	// DEFEND) first. Empty: a pass (B8).
	Orders string `toml:"orders"`
	Dice   []int  `toml:"dice"`
	// Purposes, if given, says what each die is for: each roll's purpose
	// must contain its text.
	Purposes []string  `toml:"purposes"`
	Refused  []Refusal `toml:"refused"` // the orders must be refused with exactly these
	Events   []string  `toml:"events"`  // each must be found in the events, in this order
	Absent   []string  `toml:"absent"`  // none may be found in the events
	Expect   *Expect   `toml:"expect"`  // the position after the impulse
}

// A Refusal is one line the orders must be refused for, with the rule the
// refusal must cite and, if given, words its message must contain.
type Refusal struct {
	Line int    `toml:"line"`
	Rule string `toml:"rule"`
	Text string `toml:"text"`
}

// Expect is what a position must show. Only what is given is compared.
type Expect struct {
	Next     string            `toml:"next"`
	VP       *int              `toml:"vp"`
	Over     *bool             `toml:"over"`
	Result   string            `toml:"result"`
	Released []string          `toml:"released"`
	Control  ExpectControl     `toml:"control"`
	Units    []ExpectUnit      `toml:"unit"`
	Bridges  []ExpectBridge    `toml:"bridge"`
	SF       *ExpectSF         `toml:"special_forces"`
	Standing map[string]string `toml:"standing"` // "german" = "BLOW NONE": the side's BLOW order
}

// ExpectControl lists areas by who must control them (12.22); none: no
// side.
type ExpectControl struct {
	German []int `toml:"german"`
	Allied []int `toml:"allied"`
	None   []int `toml:"none"`
}

// ExpectUnit is what one unit must show.
type ExpectUnit struct {
	ID         string      `toml:"id"`
	At         rules.Place `toml:"at"`
	Strength   int         `toml:"strength"`
	Eliminated *bool       `toml:"eliminated"`
	Entrenched *bool       `toml:"entrenched"`
	Moved      *bool       `toml:"moved"`
	Attacked   *bool       `toml:"attacked"`
	Dismounted *bool       `toml:"dismounted"`
	InSupply   *bool       `toml:"in_supply"`
	Exited     *bool       `toml:"exited"`
	Bridging   *bool       `toml:"bridging"`
}

// ExpectBridge is what one bridge must show.
type ExpectBridge struct {
	A              int   `toml:"a"`
	B              int   `toml:"b"`
	Blown          *bool `toml:"blown"`
	RepairFailures *int  `toml:"repair_failures"`
}

// ExpectSF is the special-forces counter that must be on the map; Absent:
// none.
type ExpectSF struct {
	Absent bool   `toml:"absent"`
	Area   int    `toml:"area"`
	Effect string `toml:"effect"`
}

// Load reads a case file and checks that it is complete. It does not load
// the scenario: Run does.
func Load(path string) (*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading case %s: %w", path, err)
	}
	c := &Case{File: path}
	md, err := toml.Decode(string(data), c)
	if err != nil {
		return nil, fmt.Errorf("%s: not a case: %w", path, err)
	}
	c.lines = rules.NewTOMLLines(data)
	var problems []string
	for _, k := range md.Undecoded() {
		problems = append(problems, fmt.Sprintf("%s:%d: unknown key %q (docs/conformance.md lists the keys)", path, c.lines.Line(k...), k.String()))
	}
	need := func(ok bool, key, what string) {
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: %s is missing: %s", path, key, what))
		}
	}
	need(ruleRE.MatchString(c.Rule), "rule", `the row of the rulebook, as "8.26" or "scenario intro"`)
	need(strings.TrimSpace(c.Title) != "", "title", "one line saying what the case shows")
	need(strings.TrimSpace(c.Description) != "", "description", "the position and what must happen, for a player to read")
	need(c.Scenario != "", "scenario", "a shipped scenario or a scenario file")
	need(len(c.Impulses) > 0, "[[impulse]]", "at least one impulse to play")
	for _, r := range c.Also {
		need(ruleRE.MatchString(r), "also", fmt.Sprintf("%q is not a row of the rulebook", r))
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	return c, nil
}

var ruleRE = regexp.MustCompile(`^(\d{1,2}\.\d{1,2}|scenario [a-z-]+( [a-z0-9-]+)?)$`)

// Rows returns every row the case covers: its rule and the others it names.
func (c *Case) Rows() []string { return append([]string{c.Rule}, c.Also...) }

// A Loader loads scenarios, keeping each: the cases share a handful.
type Loader struct {
	cache map[string]*rules.Scenario
}

func (l *Loader) load(c *Case) (*rules.Scenario, error) {
	name := c.Scenario
	if !scenarios.Shipped(name) && !filepath.IsAbs(name) {
		name = filepath.Join(filepath.Dir(c.File), filepath.FromSlash(name))
	}
	if s := l.cache[name]; s != nil {
		return s, nil
	}
	s, err := scenarios.Load(name)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", c.Scenario, err)
	}
	if l.cache == nil {
		l.cache = map[string]*rules.Scenario{}
	}
	l.cache[name] = s
	return s, nil
}

// Run plays the case and returns every way the outcome differs from what
// the case expects; none means it passed. The error is for a case that
// cannot be played at all (a scenario or position that does not load).
func (l *Loader) Run(c *Case) ([]string, error) {
	s, err := l.load(c)
	if err != nil {
		return nil, err
	}
	st := rules.NewState(s)
	if c.Position != nil {
		if st, err = c.Position.State(s, c.File, c.lines, "position"); err != nil {
			return nil, err
		}
	}
	var fails []string
	for i, imp := range c.Impulses {
		name := fmt.Sprintf("impulse %d (%s)", i+1, st.Next)
		next, fs := play(s, st, imp)
		for _, f := range fs {
			fails = append(fails, name+": "+f)
		}
		if next != nil {
			st = next
		}
		if imp.Expect != nil {
			for _, f := range imp.Expect.compare(s, st) {
				fails = append(fails, "after "+name+": "+f)
			}
		}
	}
	if c.Expect != nil {
		for _, f := range c.Expect.compare(s, st) {
			fails = append(fails, "at the end: "+f)
		}
	}
	return fails, nil
}

// play plays one impulse and compares its refusals, dice and events.
func play(s *rules.Scenario, st *rules.State, imp Impulse) (*rules.State, []string) {
	var fails []string
	dice := &adjudicator.Scripted{Dice: imp.Dice}
	next, events, err := adjudicator.PlayFile(s, st, imp.Orders, dice)
	var errs rules.OrderErrors
	switch {
	case errors.As(err, &errs):
		fails = append(fails, compareRefusals(imp.Refused, errs)...)
		next = nil
	case err != nil:
		return nil, []string{fmt.Sprintf("cannot be played: %v", err)}
	case len(imp.Refused) > 0:
		fails = append(fails, fmt.Sprintf("the orders were carried out; %d refusal(s) expected, the first for line %d (%s)", len(imp.Refused), imp.Refused[0].Line, imp.Refused[0].Rule))
	}
	if n := len(imp.Dice) - len(dice.Rolls); n > 0 && len(imp.Refused) == 0 {
		fails = append(fails, fmt.Sprintf("%d of the %d dice given were not rolled", n, len(imp.Dice)))
	}
	if len(imp.Refused) > 0 && len(dice.Rolls) > 0 {
		fails = append(fails, fmt.Sprintf("%d dice were rolled for orders that were refused", len(dice.Rolls)))
	}
	if imp.Purposes != nil {
		for i, r := range dice.Rolls {
			if i >= len(imp.Purposes) {
				fails = append(fails, fmt.Sprintf("die %d (%d) was rolled for %s; only %d purposes given", i+1, r.Value, r.Purpose, len(imp.Purposes)))
				break
			}
			if !strings.Contains(r.Purpose, imp.Purposes[i]) {
				fails = append(fails, fmt.Sprintf("die %d (%d) was rolled for %q, want %q", i+1, r.Value, r.Purpose, imp.Purposes[i]))
			}
		}
	}
	texts := make([]string, len(events))
	for i, e := range events {
		texts[i] = e.String()
	}
	fails = append(fails, compareEvents(imp.Events, imp.Absent, texts)...)
	return next, fails
}

func compareRefusals(want []Refusal, got rules.OrderErrors) []string {
	var fails []string
	if len(want) == 0 {
		for _, e := range got {
			fails = append(fails, fmt.Sprintf("refused, line %d: %s", e.Line, e.Msg))
		}
		return fails
	}
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for i, e := range got {
			if !used[i] && e.Line == w.Line && citesRule(e.Msg, w.Rule) && strings.Contains(e.Msg, w.Text) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			fails = append(fails, fmt.Sprintf("no refusal of line %d citing %s%s; refused: %s", w.Line, w.Rule, quoted(w.Text), describe(got)))
		}
	}
	for i, e := range got {
		if !used[i] {
			fails = append(fails, fmt.Sprintf("unexpected refusal, line %d: %s", e.Line, e.Msg))
		}
	}
	return fails
}

// citesRule reports whether msg cites the rule ("8.26", "B5"), or rule is
// empty.
func citesRule(msg, rule string) bool {
	if rule == "" {
		return true
	}
	re := regexp.MustCompile(`(^|[^0-9.])` + regexp.QuoteMeta(rule) + `($|[^0-9])`)
	return re.MatchString(msg)
}

func quoted(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf(" with %q", s)
}

func describe(errs rules.OrderErrors) string {
	if len(errs) == 0 {
		return "nothing"
	}
	var parts []string
	for _, e := range errs {
		parts = append(parts, fmt.Sprintf("line %d: %s", e.Line, e.Msg))
	}
	return strings.Join(parts, "; ")
}

// compareEvents checks that each wanted fragment is found, in order, and
// no absent one at all.
func compareEvents(want, absent, got []string) []string {
	var fails []string
	i := 0
	for _, w := range want {
		j := slices.IndexFunc(got[i:], func(t string) bool { return strings.Contains(t, w) })
		if j < 0 {
			where := "among the events"
			if slices.ContainsFunc(got, func(t string) bool { return strings.Contains(t, w) }) {
				where = "after the events before it"
			}
			fails = append(fails, fmt.Sprintf("no event %q %s; the events:\n\t%s", w, where, strings.Join(got, "\n\t")))
			continue
		}
		i += j + 1
	}
	for _, a := range absent {
		for _, t := range got {
			if strings.Contains(t, a) {
				fails = append(fails, fmt.Sprintf("event %q should not have happened", t))
			}
		}
	}
	return fails
}

// compare lists how the position differs from what is expected.
func (e *Expect) compare(s *rules.Scenario, st *rules.State) []string {
	var fails []string
	diff := func(what string, got, want any) {
		fails = append(fails, fmt.Sprintf("%s is %v, want %v", what, got, want))
	}
	e.compareGame(st, diff)
	for _, w := range e.Units {
		fails = append(fails, w.compare(st)...)
	}
	for _, w := range e.Bridges {
		b := st.Bridge(w.A, w.B)
		switch {
		case b == nil:
			fails = append(fails, fmt.Sprintf("there is no bridge %d-%d", w.A, w.B))
		case w.Blown != nil && b.Blown != *w.Blown:
			diff(fmt.Sprintf("bridge %d-%d blown", w.A, w.B), b.Blown, *w.Blown)
		case w.RepairFailures != nil && b.RepairFailures != *w.RepairFailures:
			diff(fmt.Sprintf("bridge %d-%d's repair failures", w.A, w.B), b.RepairFailures, *w.RepairFailures)
		}
	}
	if sf := e.SF; sf != nil {
		switch {
		case sf.Absent && st.SF != nil:
			fails = append(fails, fmt.Sprintf("a special-forces counter (%s) is still in %d", st.SF.Effect, st.SF.Area))
		case !sf.Absent && st.SF == nil:
			fails = append(fails, "no special-forces counter is on the map")
		case !sf.Absent && (st.SF.Area != sf.Area || (sf.Effect != "" && st.SF.Effect != sf.Effect)):
			diff("the special-forces counter", fmt.Sprintf("%s in %d", st.SF.Effect, st.SF.Area), fmt.Sprintf("%s in %d", sf.Effect, sf.Area))
		}
	}
	for _, side := range slices.Sorted(maps.Keys(e.Standing)) {
		got := "none"
		if sd := st.Standing[rules.Side(side)]; sd != nil {
			got = sd.Blow.String()
		}
		if got != e.Standing[side] {
			diff(side+"'s standing BLOW", got, e.Standing[side])
		}
	}
	return fails
}

// compareGame compares what concerns the whole game: the impulse, VP,
// result, released groups and control.
func (e *Expect) compareGame(st *rules.State, diff func(what string, got, want any)) {
	if e.Next != "" && st.Next.String() != e.Next && !st.Over {
		diff("the next impulse", st.Next, e.Next)
	}
	if e.VP != nil && st.VP != *e.VP {
		diff("German VP", st.VP, *e.VP)
	}
	if e.Over != nil && st.Over != *e.Over {
		diff("game over", st.Over, *e.Over)
	}
	if e.Result != "" && st.Result != e.Result {
		diff("the result", fmt.Sprintf("%q", st.Result), fmt.Sprintf("%q", e.Result))
	}
	if e.Released != nil {
		got, want := slices.Sorted(slices.Values(st.Released)), slices.Sorted(slices.Values(e.Released))
		if !slices.Equal(got, want) {
			diff("the released groups", got, want)
		}
	}
	for side, areas := range map[rules.Side][]int{rules.German: e.Control.German, rules.Allied: e.Control.Allied, "": e.Control.None} {
		for _, a := range areas {
			if got := st.Control[a]; got != side {
				diff(fmt.Sprintf("control of %d", a), sideName(got), sideName(side))
			}
		}
	}
}

func sideName(s rules.Side) string {
	if s == "" {
		return "no side"
	}
	return string(s)
}

func (w ExpectUnit) compare(st *rules.State) []string {
	u := st.Unit(w.ID)
	if u == nil {
		return []string{fmt.Sprintf("unit %s is not in the game", w.ID)}
	}
	var fails []string
	diff := func(what string, got, want any) {
		fails = append(fails, fmt.Sprintf("%s's %s is %v, want %v", w.ID, what, got, want))
	}
	if !w.At.IsZero() && (u.Place != w.At || u.Eliminated) {
		where := u.Place.String()
		if u.Eliminated {
			where = "eliminated"
		}
		diff("place", where, w.At)
	}
	if w.Strength != 0 && u.Strength != w.Strength {
		diff("strength", u.Strength, w.Strength)
	}
	flags := []struct {
		name string
		want *bool
		got  bool
	}{
		{"eliminated", w.Eliminated, u.Eliminated},
		{"entrenched", w.Entrenched, u.Entrenched},
		{"moved", w.Moved, u.Moved},
		{"attacked", w.Attacked, u.Attacked},
		{"dismounted", w.Dismounted, u.Dismounted},
		{"in_supply", w.InSupply, u.InSupply},
		{"exited", w.Exited, u.Exited},
		{"bridging", w.Bridging, u.Bridging},
	}
	for _, f := range flags {
		if f.want != nil && f.got != *f.want {
			diff(f.name, f.got, *f.want)
		}
	}
	return fails
}
