package tournament

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"titm/rules"
)

var t0 = time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)

// settings returns settings of n players named A, B, C ...
func settings(format string, rounds, n int, sides string, tbs ...string) *Settings {
	s := &Settings{Name: "test", Director: "td@example.org", Scenarios: []string{"intro"}, Format: format, Rounds: rounds,
		Deadline: time.Hour, Sides: sides, BidDeadline: time.Hour, TieBreaks: tbs}
	for i := range n {
		name := string(rune('A' + i))
		s.Players = append(s.Players, Entry{Name: name, Address: strings.ToLower(name) + "@example.org"})
	}
	return s
}

func newT(t testing.TB, s *Settings) *Tournament {
	t.Helper()
	tokens := make([]string, len(s.Players))
	for i := range tokens {
		tokens[i] = fmt.Sprintf("token-%d-xyz", i)
	}
	tr, err := New("t-1", s, bytes.Repeat([]byte{7}, 32), tokens, t0)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// pairs writes a round's pairings by the players' names: "A-D" (A first
// as paired), "E bye".
func pairs(tr *Tournament, r *Round) string {
	var out []string
	for _, p := range r.Pairings {
		if p.Bye() {
			out = append(out, tr.Entrants[p.A].Name+" bye")
			continue
		}
		out = append(out, tr.Entrants[p.A].Name+"-"+tr.Entrants[p.B].Name)
	}
	return strings.Join(out, " ")
}

// play makes the round's games and ends them: results maps "A-D" to the
// name of the winner or "draw"; vp is the German VP of each.
func play(t *testing.T, tr *Tournament, now time.Time, results map[string]string) {
	t.Helper()
	r := tr.Current()
	for k, p := range r.Pairings {
		if p.Bye() {
			continue
		}
		key := tr.Entrants[p.A].Name + "-" + tr.Entrants[p.B].Name
		w, ok := results[key]
		if !ok {
			t.Fatalf("round %d: no result for %s (pairings %s)", r.N, key, pairs(tr, r))
		}
		id := fmt.Sprintf("g%d-%d", r.N, k+1)
		tr.GameMade(r.N, k+1, id, now)
		e := GameEnd{How: "draw", Result: "Draw"}
		if w != "draw" {
			side := rules.German
			if tr.Entrants[p.German].Name != w {
				side = rules.Allied
			}
			e = GameEnd{Winner: side, How: "victory", Result: side.Title() + " tactical victory", VP: 3}
			if side == rules.Allied {
				e.VP = -3
			}
		}
		if _, err := tr.Result(id, e, now); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSwissWorkedExample plays the worked example of docs/tournaments.md
// ("Swiss pairing"): six players, three rounds, head to head as the only
// tie-break.
func TestSwissWorkedExample(t *testing.T) {
	tr := newT(t, settings(Swiss, 3, 6, SidesAlternate, TieHeadToHead))
	steps := []struct {
		pairs   string
		results map[string]string
	}{
		{"A-D B-E C-F", map[string]string{"A-D": "A", "B-E": "B", "C-F": "F"}},
		{"A-B F-D C-E", map[string]string{"A-B": "A", "F-D": "draw", "C-E": "E"}},
		// B and E are tied on 1 point; B beat E, so B is above. B may not
		// meet E again, and B-D would leave E-C, a rematch: B meets C.
		{"A-F B-C E-D", map[string]string{"A-F": "A", "B-C": "B", "E-D": "E"}},
	}
	now := t0
	for i, s := range steps {
		if _, err := tr.Pair(now); err != nil {
			t.Fatal(err)
		}
		if got := pairs(tr, tr.Current()); got != s.pairs {
			t.Errorf("round %d: paired %s, want %s", i+1, got, s.pairs)
		}
		play(t, tr, now, s.results)
		now = now.Add(time.Hour)
	}
	var got []string
	for _, s := range tr.Standings() {
		got = append(got, fmt.Sprintf("%d %s %.1f", s.Rank, s.Name, s.Points))
	}
	// B and E have 2 points each and did meet: B won, so B is second alone.
	want := "1 A 3.0|2 B 2.0|3 E 2.0|4 F 1.5|5 D 0.5|6 C 0.0"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("standings %s, want %s", g, want)
	}
	if tr.Status != Over || tr.Seed == "" {
		t.Errorf("after the last round the status is %q and the seed %q: want it over and revealed", tr.Status, tr.Seed)
	}
}

func TestSwissBye(t *testing.T) {
	tr := newT(t, settings(Swiss, 2, 5, SidesAlternate, TieHeadToHead))
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	// Five players: E, the lowest, has the bye; the four left pair as a
	// group of four, A-C and B-D.
	if got := pairs(tr, tr.Current()); got != "A-C B-D E bye" {
		t.Fatalf("round 1: %s", got)
	}
	play(t, tr, t0, map[string]string{"A-C": "A", "B-D": "D"})
	if _, err := tr.Pair(t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	// A, D and E have 1 point (E by the bye, which counts as a win), in
	// the file's order; B and C none. E had the bye, so the lowest
	// without one, C, has it. A meets D; E, alone in his group, floats
	// down to B.
	if got := pairs(tr, tr.Current()); got != "A-D E-B C bye" {
		t.Errorf("round 2: %s, want A-D E-B C bye", got)
	}
}

func TestSwissNoRematchEver(t *testing.T) {
	// 8 players, 7 rounds: every round must pair without a rematch, and
	// after 7 rounds everyone has met everyone.
	tr := newT(t, settings(Swiss, 7, 8, SidesAlternate, TieBuchholz, TieMargin))
	for n := 1; n <= 7; n++ {
		if _, err := tr.Pair(t0); err != nil {
			t.Fatalf("round %d: %v", n, err)
		}
		res := map[string]string{}
		for _, p := range tr.Current().Pairings {
			res[tr.Entrants[p.A].Name+"-"+tr.Entrants[p.B].Name] = tr.Entrants[p.A].Name
		}
		play(t, tr, t0, res)
	}
	met := map[[2]int]int{}
	for _, r := range tr.Rounds {
		for _, p := range r.Pairings {
			a, b := min(p.A, p.B), max(p.A, p.B)
			met[[2]int{a, b}]++
		}
	}
	if len(met) != 28 {
		t.Errorf("%d different pairs met in 7 rounds, want all 28", len(met))
	}
}

func TestRoundRobin(t *testing.T) {
	for _, n := range []int{4, 5, 8} {
		rounds := n - 1
		if n%2 == 1 {
			rounds = n
		}
		met := map[[2]int]bool{}
		for r := 1; r <= rounds; r++ {
			seen := map[int]bool{}
			for _, p := range RoundRobinPairs(n, r) {
				for _, x := range p {
					if x >= 0 && seen[x] {
						t.Fatalf("n=%d round %d: player %d twice", n, r, x)
					}
					seen[x] = true
				}
				if p[1] >= 0 {
					k := [2]int{min(p[0], p[1]), max(p[0], p[1])}
					if met[k] {
						t.Errorf("n=%d round %d: %v met before", n, r, k)
					}
					met[k] = true
				}
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Errorf("n=%d: %d pairs met, want %d", n, len(met), n*(n-1)/2)
		}
	}
}

func TestElimination(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{4, "[[0 3] [1 2]]"},
		{8, "[[0 7] [3 4] [1 6] [2 5]]"},
		{5, "[[0 -1] [3 4] [1 -1] [2 -1]]"},
	} {
		if got := fmt.Sprint(EliminationFirst(c.n)); got != c.want {
			t.Errorf("%d players: %s, want %s", c.n, got, c.want)
		}
	}
}

func TestStandingsTieBreaks(t *testing.T) {
	// A round robin of 4: A beats everyone; B, C and D beat each other
	// in a circle, so they are tied on points and head to head; the
	// margin then sorts them.
	tr := newT(t, settings(RoundRobin, 3, 4, SidesAlternate, TieHeadToHead, TieMargin))
	results := []map[string]string{
		{"A-D": "A", "B-C": "B"},
		{"A-C": "A", "D-B": "D"},
		{"A-B": "A", "C-D": "C"},
	}
	for _, res := range results {
		if _, err := tr.Pair(t0); err != nil {
			t.Fatal(err)
		}
		play(t, tr, t0, res)
	}
	st := tr.Standings()
	if st[0].Name != "A" || st[0].Points != 3 {
		t.Errorf("first %+v, want A with 3", st[0])
	}
	for _, s := range st[1:] {
		if s.Points != 1 || s.HeadToHead == nil || *s.HeadToHead != 1 || s.Rank != 2 {
			t.Errorf("%+v: want 1 point, 1 head to head, rank 2 (the margins are all 0)", s)
		}
	}
}

func TestGlickmanExample(t *testing.T) {
	// "Example of the Glicko-2 system", Glickman: 1500/200/0.06 against
	// 1400/30 (won), 1550/100 (lost), 1700/300 (lost).
	r := Update(Rating{Rating: 1500, RD: 200, Vol: 0.06}, []Outcome{{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}})
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", r.Rating, 1464.06, 0.01},
		{"RD", r.RD, 151.52, 0.01},
		{"volatility", r.Vol, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s %.5f, want %.5f", c.name, c.got, c.want)
		}
	}
}

func TestRatingsPeriods(t *testing.T) {
	// Two games in one week form one period: each player is rated once
	// against the other's rating at the period's start.
	gs := []Game{
		{German: "a", Allied: "b", Score: 1, End: t0},
		{German: "b", Allied: "a", Score: 0, End: t0.Add(time.Hour)},
	}
	rs := Ratings(gs)
	if len(rs) != 2 || rs[0].Player != "a" || rs[0].Games != 2 {
		t.Fatalf("%+v", rs)
	}
	want := Update(Rating{Rating: 1500, RD: 350, Vol: 0.06}, []Outcome{{1500, 350, 1}, {1500, 350, 1}})
	if rs[0].Rating != want.Rating {
		t.Errorf("a's rating %.2f, want %.2f", rs[0].Rating, want.Rating)
	}
	if rs[1].Rating >= 1500 || rs[0].Rating+rs[1].Rating-3000 > 1e-6 {
		t.Errorf("ratings %.2f and %.2f: want them symmetric about 1500", rs[0].Rating, rs[1].Rating)
	}
}

func TestParseProblems(t *testing.T) {
	file := `name = "Bulge Open"
director = "td@example.org"
scenario = "nowhere"
format = "swiss"
rounds = 5
sides = "bids"

[[player]]
name = "Anna"
address = "anna@example.org"

[[player]]
name = "Bert"
address = "bert@example.org"

[[player]]
name = "Anna"
address = "ANNA@example.org"

[[player]]
name = "Dora"
address = "dora@example.org"
language = "fr"
`
	known := func(s string) error {
		if s == "intro" {
			return nil
		}
		return fmt.Errorf("no scenario %q", s)
	}
	_, err := Parse("open.toml", []byte(file), known)
	ps, ok := err.(*Problems)
	if !ok {
		t.Fatalf("error %v, want *Problems", err)
	}
	want := []string{
		`open.toml:3: unknown scenario "nowhere": no scenario "nowhere"`,
		`open.toml:16: player "Anna" repeats the name of the player at line 8`,
		`open.toml:16: player "Anna" repeats the address of the player at line 8`,
		`open.toml:20: player "Dora": unknown language "fr": want en (English) or ja (Japanese)`,
		`open.toml:5: rounds = 5 is impossible: 4 players can play at most 3 rounds without a rematch`,
	}
	if got := ps.Error(); got != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	right := strings.NewReplacer("nowhere", "intro", "rounds = 5", "rounds = 3", "Anna\"\naddress = \"ANNA", "Cleo\"\naddress = \"cleo", `"fr"`, `"ja"`).Replace(file)
	if set, err := Parse("open.toml", []byte(right), known); err != nil {
		t.Errorf("the file put right: %v", err)
	} else if set.Players[3].Language != "ja" || set.Players[0].Language != "" {
		t.Errorf("the players' languages: %+v", set.Players)
	}
	// A missing name is the whole file's problem, as a missing scenario
	// is: not the line of a player's name.
	_, err = Parse("open.toml", []byte(strings.Replace(file, "name = \"Bulge Open\"\n", "", 1)), known)
	if err == nil || !strings.Contains(err.Error(), "open.toml: the tournament has no name") {
		t.Errorf("problems %v: want the missing name with no line", err)
	}
	_, err = Parse("x.toml", []byte("name = \"x\"\nformat = \"ladder\"\ndirector = \"nobody\"\nscenario = \"intro\"\ncolour = 3\n"), nil)
	for _, w := range []string{`x.toml:5: unknown key "colour"`, `x.toml:3: director = "nobody" is not a mail address`, `x.toml:2: format = "ladder"`, "at least 2 players"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("problems %v: want %q", err, w)
		}
	}
}

func TestBids(t *testing.T) {
	tr := newT(t, settings(Swiss, 1, 4, SidesBids))
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	// A-C and B-D.
	a, b, c := 0, 1, 2
	now := t0.Add(time.Minute)
	for _, bad := range []struct {
		who  int
		bid  Bid
		want string
	}{
		{a, Bid{Side: rules.German, VP: 2}, ""},
		{a, Bid{Side: rules.Allied, VP: 1}, "your bid is in already"},
	} {
		_, err := tr.Bid(bad.who, bad.bid, now)
		if (err == nil) != (bad.want == "") || (err != nil && !strings.Contains(err.Error(), bad.want)) {
			t.Errorf("bid %+v: %v, want %q", bad.bid, err, bad.want)
		}
	}
	if tr.Current().Pairings[0].Sided() {
		t.Fatal("one bid decided the sides")
	}
	for _, s := range []string{"german", "allied -1", "german x", "german 2 allied 1", "russian 2"} {
		if _, err := ParseBid(strings.Fields(s)); err == nil {
			t.Errorf("ParseBid(%q) took it", s)
		}
	}
	recs, err := tr.Bid(c, Bid{Side: rules.German, VP: 3}, now)
	if err != nil {
		t.Fatal(err)
	}
	p := tr.Current().Pairings[0]
	if len(recs) != 2 || p.German != c || p.Give != 3 || recs[1].Bids[0].VP != 2 {
		t.Errorf("C outbid A for the German side: german %d, give %d, records %+v", p.German, p.Give, recs)
	}
	// B bids; the deadline passes before D does: B takes his side.
	if _, err := tr.Bid(b, Bid{Side: rules.Allied, VP: 0}, now); err != nil {
		t.Fatal(err)
	}
	late := t0.Add(2 * time.Hour)
	snap, _ := json.Marshal(tr)
	if _, err := tr.Bid(3, Bid{Side: rules.German, VP: 1}, late); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("a late bid: %v", err)
	}
	if after, _ := json.Marshal(tr); !bytes.Equal(snap, after) {
		t.Error("a refused bid changed the tournament")
	}
	if _, err := tr.CloseBids(late); err != nil {
		t.Fatal(err)
	}
	if q := tr.Current().Pairings[1]; q.SideOf(b) != rules.Allied || q.Give != 0 {
		t.Errorf("B's lone bid: %+v", q)
	}
}

func TestVerifyReplays(t *testing.T) {
	tr := newT(t, settings(Swiss, 2, 5, SidesBids, TieBuchholz))
	now := t0
	for n := 0; n < 2; n++ {
		if _, err := tr.Pair(now); err != nil {
			t.Fatal(err)
		}
		r := tr.Current()
		// Equal bids for the first pairing, so the dice decide; none for
		// the second.
		p := r.Pairings[0]
		for _, i := range []int{p.A, p.B} {
			if _, err := tr.Bid(i, Bid{Side: rules.Allied, VP: 1}, now.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tr.CloseBids(now.Add(2 * time.Hour)); err != nil {
			t.Fatal(err)
		}
		res := map[string]string{}
		for _, p := range r.Pairings {
			if !p.Bye() {
				res[tr.Entrants[p.A].Name+"-"+tr.Entrants[p.B].Name] = "draw"
			}
		}
		play(t, tr, now.Add(3*time.Hour), res)
		now = now.Add(24 * time.Hour)
	}
	x := MakeExport(tr, nil)
	if _, err := Verify(x); err == nil || !strings.Contains(err.Error(), "missing from the export") {
		t.Errorf("an export without its games: %v", err)
	}
	v, err := VerifyLog(x)
	if err != nil {
		t.Fatal(err)
	}
	if !v.DiceChecked || v.Sides != 4 || v.Dice < 2 {
		t.Errorf("verified %+v: want the dice checked, 4 side decisions, at least 2 dice", v)
	}
	// Without the seed the dice are taken as logged.
	x.Seed = ""
	if _, err := VerifyLog(x); err == nil || !strings.Contains(err.Error(), "does not reveal") {
		t.Errorf("a finished tournament without its seed: %v", err)
	}
	// A side decision changed: the replay tells.
	x.Seed = tr.Seed
	for i, r := range x.Records {
		if r.Kind == KindSides && len(r.Dice) == 1 {
			r.Dice[0].Value = 11 - r.Dice[0].Value
			r.German = 0
			r.Hash = RecordHash(r)
			x.Records[i] = r
			break
		}
	}
	if _, err := VerifyLog(x); err == nil {
		t.Error("a changed die passed")
	}
}

func BenchmarkSwissPairing256(b *testing.B) {
	tr := newT(b, settings(Swiss, 8, 256, SidesAlternate))
	// Five rounds played, the higher-ranked player winning, so that the
	// sixth is paired with score groups and past opponents to avoid.
	for n := 0; n < 5; n++ {
		if _, err := tr.Pair(t0); err != nil {
			b.Fatal(err)
		}
		for k, p := range tr.Current().Pairings {
			id := fmt.Sprintf("g%d-%d", n, k)
			tr.GameMade(n+1, k+1, id, t0)
			side := p.SideOf(p.A)
			if (n+k)%5 == 0 {
				side = p.SideOf(p.B)
			}
			if _, err := tr.Result(id, GameEnd{Winner: side, How: "victory", Result: "x", VP: k % 7}, t0); err != nil {
				b.Fatal(err)
			}
		}
	}
	ps := tr.swissPlayers()
	b.ResetTimer()
	for range b.N {
		if _, err := SwissPairs(ps); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStandings256(b *testing.B) {
	tr := newT(b, settings(Swiss, 8, 256, SidesAlternate, TieBuchholz, TieMargin, TieHeadToHead))
	for n := 0; n < 8; n++ {
		if _, err := tr.Pair(t0); err != nil {
			b.Fatal(err)
		}
		for k, p := range tr.Current().Pairings {
			id := fmt.Sprintf("g%d-%d", n, k)
			tr.GameMade(n+1, k+1, id, t0)
			e := GameEnd{Winner: p.SideOf(p.B), How: "victory", Result: "x", VP: k % 5}
			if k%3 == 0 {
				e = GameEnd{How: "draw", Result: "Draw"}
			}
			if _, err := tr.Result(id, e, t0); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for range b.N {
		tr.Standings()
	}
}

// A lone bid is sealed in what is shown of the tournament: only that it
// came in, until the sides are decided; then both bids are shown.
func TestPublicSealsBids(t *testing.T) {
	tr := newT(t, settings(Swiss, 1, 4, SidesBids))
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	// A-C and B-D; A bids.
	if _, err := tr.Bid(0, Bid{Side: rules.German, VP: 7}, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	pub := tr.Public()
	data, err := json.Marshal(pub)
	if err != nil {
		t.Fatal(err)
	}
	if p := pub.Rounds[0].Pairings[0]; p.Bids[0] != nil || !p.Sealed[0] || p.Sealed[1] || strings.Contains(string(data), `"vp":7`) {
		t.Errorf("a lone bid is shown: bids %v, sealed %v\n%s", p.Bids, p.Sealed, data)
	}
	if p := tr.Rounds[0].Pairings[0]; p.Bids[0] == nil || p.Sealed[0] {
		t.Errorf("Public changed the tournament: bids %v, sealed %v", p.Bids, p.Sealed)
	}
	// C bids: the sides are decided, and both bids are revealed.
	if _, err := tr.Bid(2, Bid{Side: rules.Allied, VP: 2}, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if p := tr.Public().Rounds[0].Pairings[0]; p.Bids[0] == nil || p.Bids[0].VP != 7 || p.Bids[1] == nil || p.Sealed != [2]bool{} {
		t.Errorf("the bids after the sides are decided: bids %v, sealed %v", p.Bids, p.Sealed)
	}
}

// The hash of a sealed bid in the log cannot be undone by hashing every
// bid a player could make: it is salted, and the salt is revealed with the
// bid.
func TestBidHashSalted(t *testing.T) {
	tr := newT(t, settings(Swiss, 1, 4, SidesBids))
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	recs, err := tr.Bid(0, Bid{Side: rules.German, VP: 7}, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0]
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		for vp := 0; vp <= 1000; vp++ {
			if bidHash(tr.ID, r.Round, r.Player-1, Bid{Side: side, VP: vp, Time: r.Time}) == r.BidHash {
				t.Fatalf("the log's hash gives the sealed bid away: %s %d", side, vp)
			}
		}
	}
	recs, err = tr.Bid(2, Bid{Side: rules.Allied, VP: 2}, t0.Add(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	b := recs[len(recs)-1].Bids[0]
	if b == nil || b.Salt == "" || bidHash(tr.ID, r.Round, r.Player-1, *b) != r.BidHash {
		t.Errorf("the revealed bid %+v does not match its sealed hash", b)
	}
}

// The export of a running tournament verifies while a bid is sealed; a
// log whose two bids are in and never revealed does not.
func TestVerifyWhileBidding(t *testing.T) {
	tr := newT(t, settings(Swiss, 1, 4, SidesBids))
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Bid(0, Bid{Side: rules.German, VP: 7}, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	x := MakeExport(tr, nil)
	if data, _ := json.Marshal(x); strings.Contains(string(data), `"vp":7`) {
		t.Errorf("the export reveals the sealed bid:\n%s", data)
	}
	if _, err := Verify(x); err != nil {
		t.Errorf("the export with a bid sealed: %v", err)
	}
	// Both bids in: the sides record follows at once. A log cut before it
	// has two bids the sides must come from, and reveals neither.
	recs, err := tr.Bid(2, Bid{Side: rules.Allied, VP: 2}, t0.Add(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	x = MakeExport(tr, nil)
	x.Records = x.Records[:len(x.Records)-1]
	x.Head = recs[0].Hash
	if _, err := VerifyLog(x); err == nil || !strings.Contains(err.Error(), "never reveals") {
		t.Errorf("two bids never revealed: %v", err)
	}
	// A bid logged after the bids closed is refused, sealed as it is.
	tr = newT(t, settings(Swiss, 1, 4, SidesBids))
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Bid(0, Bid{Side: rules.German, VP: 7}, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	x = MakeExport(tr, nil)
	r := &x.Records[len(x.Records)-1]
	r.Time = t0.Add(2 * time.Hour)
	r.Hash = RecordHash(*r)
	x.Head = r.Hash
	if _, err := VerifyLog(x); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("a sealed bid after the bids closed: %v", err)
	}
}

// The bids' VP change a game ended by its VP levels, a draw as a victory;
// a concession, an agreed draw and the director's decision stand.
func TestEndWithBids(t *testing.T) {
	n := func(v int) *int { return &v }
	v := &rules.Victory{Kind: rules.VictoryVP, Levels: []rules.Level{
		{Min: n(3), Result: "German tactical victory"},
		{Min: n(-2), Max: n(2), Result: "Draw"},
		{Max: n(-3), Result: "Allied tactical victory"},
	}}
	for _, c := range []struct {
		result     string
		vp, give   int
		how        string
		winner     rules.Side
		wantHow    string
		wantMargin int
	}{
		{"Draw", 2, -2, "", rules.German, "victory", 4},
		{"German tactical victory", 4, 3, "", "", "draw", 1},
		{"Allied tactical victory", -3, 0, "", rules.Allied, "victory", -3},
		{"drawn by agreement", 2, -2, "", "", "draw", 4},
		{"the German player conceded: Allied victory", 5, 3, "", rules.Allied, "concession", 2},
		{"drawn by the director", 2, -2, "adjudicated", "", "adjudicated", 4},
	} {
		e := End(c.result, c.vp, c.give, v, c.how)
		if e.Winner != c.winner || e.How != c.wantHow || e.VP != c.wantMargin || e.BothLose {
			t.Errorf("%q, %d VP, %d given: %+v; want winner %q, how %q, VP %d", c.result, c.vp, c.give, e, c.winner, c.wantHow, c.wantMargin)
		}
	}
}

// Replace takes a bare mail address of nobody in the tournament, and not
// the director's.
func TestReplaceRefused(t *testing.T) {
	tr := newT(t, settings(Swiss, 1, 4, SidesAlternate))
	head := tr.Head
	for _, c := range []struct{ addr, want string }{
		{"not an address", "is not a mail address"},
		{"Eve <eve@example.org>", "is not a mail address"},
		{"td@example.org", "the director's address"},
		{"TD@example.org", "the director's address"},
		{"b@example.org", "plays in tournament"},
	} {
		if _, err := tr.Replace(0, "", c.addr, "token-x", "ill", "", t0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("replaced by %q: %v, want %q", c.addr, err, c.want)
		}
	}
	if tr.Head != head || tr.Entrants[0].Address != "a@example.org" {
		t.Error("a refused replacement changed the tournament")
	}
	if _, err := tr.Replace(0, "", "eve@example.org", "token-x", "ill", "", t0); err != nil {
		t.Errorf("a good replacement: %v", err)
	}
}
