package referee_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/referee"
	"titm/internal/golden"
	"titm/rules"
	"titm/store"
)

// newGame makes a store under the test's directory with a game of the
// scenario and an observer, and returns the store, the game's id and the
// tokens.
func newGame(t *testing.T, ref *referee.Referee, scenario string) (*store.Store, string, map[rules.Side]string) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "titm.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var c *referee.Created
	err = st.Update(func(tx *store.Tx) error {
		c, err = ref.New(tx, referee.NewGame{Scenario: scenario, German: "hasso@example.org", Allied: "troy@example.org",
			Observers: []string{"umpire@example.org"}, Deadline: 48 * time.Hour}, start)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return st, c.Game.ID, c.Tokens
}

// begin joins both players and returns the result of the second JOIN,
// which begins the game.
func begin(t *testing.T, ref *referee.Referee, st *store.Store, id string) *referee.Result {
	t.Helper()
	act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, rules.German, "g", start) })
	return act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, rules.Allied, "a", start) })
}

// The mail that the game begins carries the scenario brief: each player's
// with his own reinforcements first, the observer's with both sides', the
// German first; each with the picture of the start. The golden briefs are
// one side's for each scenario.
func TestBriefWithTheStart(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", MapPicture: true})
	for _, c := range []struct {
		scenario string
		side     rules.Side
		want     []string // in the brief, in this order
	}{
		{"intro", rules.German, []string{"Impulses: from G16-1", "A18-3, Allied impulse 3 of 18 December", "zones C (Bitburg), P",
			"German: zone C (Bitburg)", "Allied: zone P", "Mersch (59)", "Luxembourg (4), Mersch (59)",
			"1 German, 1 contested, 0 Allied: German tactical victory",
			"Your reinforcements (German)", "G17-1", "The Allied reinforcements"}},
		{"three-days", rules.Allied, []string{"A18-3, Allied impulse 3 of 18 December", "The whole map", "zone A (Hellenthal), zone B (Prüm), zone C (Bitburg)",
			"Victory towns: at the end the Germans score 2 VP for each they control and 1 VP for each contested", "Arlon (115)", "Monschau (41)",
			"Holes: at the end the Germans score 3 VP", "13 VP or more: German decisive victory", "5 VP or less: Allied decisive victory",
			"Your reinforcements (Allied)", "The German reinforcements", "Panzer reserve"}},
		{"fifth-panzer", rules.German, []string{"G22-1, German impulse 1 of 22 December", "Only part of the map is in play", "No unit may move off the scenario's map",
			"German: zone B (Prüm), zone C (Bitburg)", "VP areas: in the victory phase of every turn", "Bastogne", "VP zones",
			"16 VP or more: German decisive victory", "Your reinforcements (German)", "Panzer reserve", "The Allied reinforcements", "off the scenario's map"}},
		{"campaign", rules.Allied, []string{"A22-1, Allied impulse 1 of 22 December", "The whole map", "VP areas: in the victory phase of every turn",
			"14 VP or less: Allied decisive victory", "40 VP or more: German decisive victory", "Your reinforcements (Allied)", "The German reinforcements", "Panzer reserve"}},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			st, id, _ := newGame(t, ref, c.scenario)
			res := begin(t, ref, st, id)
			if got := recipients(res); got != "report:hasso@example.org report:troy@example.org report:umpire@example.org" {
				t.Fatalf("the start went to %q", got)
			}
			briefs := map[string]string{}
			for _, m := range res.Mails {
				if !strings.HasSuffix(m.Subject, "begins: both players have joined") {
					t.Errorf("subject %q", m.Subject)
				}
				if m.Map == nil || !strings.HasSuffix(m.Map.Name, "-start.png") {
					t.Errorf("the mail to %s carries no picture of the start: %+v", m.To[0], m.Map)
				}
				_, brief, ok := strings.Cut(m.Text, "Scenario brief: ")
				if !ok {
					t.Fatalf("no brief in the mail to %s:\n%s", m.To[0], m.Text)
				}
				briefs[m.To[0]] = "Scenario brief: " + brief
				for _, l := range strings.Split(m.Text, "\n") {
					if len([]rune(l)) > 78 {
						t.Errorf("line over 78 columns: %q", l)
					}
				}
			}
			own := map[rules.Side]string{rules.German: "hasso@example.org", rules.Allied: "troy@example.org"}
			text := briefs[own[c.side]]
			golden.Check(t, filepath.Join("testdata", "brief-"+c.scenario+"-"+string(c.side)+".txt"), text)
			at, flat := 0, strings.Join(strings.Fields(text), " ")
			for _, w := range c.want {
				i := strings.Index(flat[at:], w)
				if i < 0 {
					t.Errorf("%q missing, or not after what comes before it", w)
					continue
				}
				at += i
			}
			// The other player's starts with his own schedule; the
			// observer's names nobody's as his own and gives the
			// German first.
			other := briefs[own[c.side.Enemy()]]
			if !strings.Contains(other, "Your reinforcements ("+c.side.Enemy().Title()+")") {
				t.Errorf("the %s player's brief does not give his own reinforcements", c.side.Enemy())
			}
			obs := briefs["umpire@example.org"]
			g, a := strings.Index(obs, "The German reinforcements"), strings.Index(obs, "The Allied reinforcements")
			if strings.Contains(obs, "Your reinforcements") || g < 0 || a < g {
				t.Errorf("the observer's brief:\n%s", obs)
			}
		})
	}
}

// BRIEF is answered with the brief and the picture of the start, at any
// time of the game.
func TestBriefRequest(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", MapPicture: true})
	st, id, tokens := newGame(t, ref, "intro")
	begin(t, ref, st, id)
	res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Orders(tx, id, rules.Allied, "GAME "+id+"\nTOKEN "+tokens[rules.Allied]+"\nbrief\n", start.Add(time.Hour))
	})
	if res.Refused || len(res.Mails) != 0 || !strings.Contains(res.Reply, "Scenario brief: The 7th Army Attacks (intro)") ||
		!strings.Contains(res.Reply, "Your reinforcements (Allied)") {
		t.Fatalf("BRIEF: refused %v, %d mails, reply:\n%s", res.Refused, len(res.Mails), res.Reply)
	}
	if res.ReplyMap == nil || !strings.HasSuffix(res.ReplyMap.Name, "-start.png") {
		t.Errorf("BRIEF's reply carries no picture of the start: %+v", res.ReplyMap)
	}
}

// PICTURE OFF is kept in the game: the player's reports, the game's start
// and his STATUS come without the picture, the others' with it; PICTURE ON
// brings it back. A mail refused for its orders changes no setting.
func TestPictureSetting(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", MapPicture: true})
	st, id, tokens := newGame(t, ref, "intro")
	mail := func(side rules.Side, text string) *referee.Result {
		return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+text, start.Add(time.Hour))
		})
	}
	pictures := func(res *referee.Result) string {
		var out []string
		for _, m := range res.Mails {
			out = append(out, m.To[0]+":"+map[bool]string{true: "picture", false: "text"}[m.Map != nil])
		}
		return strings.Join(out, " ")
	}
	stored := func() bool {
		var on bool
		st.View(func(tx *store.Tx) error {
			g, err := tx.Game(id)
			if err != nil {
				t.Fatal(err)
			}
			on = g.Players[rules.Allied].Pictures()
			return nil
		})
		return on
	}

	if !stored() {
		t.Fatal("a new game's player has PICTURE OFF")
	}
	res := mail(rules.Allied, "PICTURE OFF")
	if res.Refused || !strings.Contains(res.Reply, "PICTURE OFF is kept for game intro-1") || stored() {
		t.Fatalf("PICTURE OFF: refused %v, kept %v:\n%s", res.Refused, !stored(), res.Reply)
	}
	res = mail(rules.Allied, "PICTURE ON\nMOVE nobody 1 2")
	if !res.Refused || stored() {
		t.Errorf("PICTURE ON with a bad order: refused %v, kept %v", res.Refused, stored())
	}
	res = begin(t, ref, st, id)
	if got := pictures(res); got != "hasso@example.org:picture troy@example.org:text umpire@example.org:picture" {
		t.Errorf("the start: %s", got)
	}
	res = act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Deadline(tx, id, start.Add(49*time.Hour)) })
	if got := pictures(res); got != "hasso@example.org:picture troy@example.org:text umpire@example.org:picture" {
		t.Errorf("a report: %s", got)
	}
	res = mail(rules.Allied, "STATUS")
	if res.ReplyMap != nil || !strings.Contains(res.Reply, "Your mails come without the map picture") {
		t.Errorf("STATUS with PICTURE OFF: picture %v\n%s", res.ReplyMap, res.Reply)
	}
	res = mail(rules.Allied, "picture on\nUNITS")
	if !stored() || strings.Count(strings.Join(strings.Fields(res.Reply), " "), "Your mails carry the map picture (PICTURE ON)") != 1 {
		t.Errorf("PICTURE ON: kept %v\n%s", stored(), res.Reply)
	}
	res = mail(rules.German, "STATUS")
	if res.ReplyMap == nil {
		t.Error("STATUS with PICTURE ON: no picture")
	}
	for in, want := range map[string]string{"PICTURE": "ON or OFF is missing", "PICTURE maybe": `PICTURE takes ON or OFF, not "maybe"`} {
		if res := mail(rules.German, in); !res.Refused || !strings.Contains(res.Reply, want) {
			t.Errorf("%q: refused %v\n%s", in, res.Refused, res.Reply)
		}
	}
}

// The note on the map picture is said once a reply, whichever requests
// of the mail answer with it (STATUS, UNITS, PICTURE); a setting changed
// between two of them is said as it was at each.
func TestPictureNoteOnce(t *testing.T) {
	const (
		on  = "Your mails carry the map picture (PICTURE ON); PICTURE OFF leaves it out."
		off = "Your mails come without the map picture, the text alone (PICTURE OFF); PICTURE ON brings it back."
	)
	for _, c := range []struct {
		mail    string
		on, off int // how many times each note is said
	}{
		{"STATUS", 1, 0},
		{"UNITS", 1, 0},
		{"STATUS\nUNITS", 1, 0},
		{"UNITS\nSTATUS\nUNITS", 1, 0},
		{"PICTURE ON\nSTATUS\nUNITS", 1, 0},
		{"STATUS\nPICTURE OFF\nUNITS", 1, 1},
	} {
		ref := referee.New(&referee.Options{Address: "referee@example.org", MapPicture: true})
		st, id, tokens := newGame(t, ref, "intro")
		res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, rules.German, "GAME "+id+"\nTOKEN "+tokens[rules.German]+"\n"+c.mail, start.Add(time.Hour))
		})
		reply := strings.Join(strings.Fields(res.Reply), " ")
		if n, m := strings.Count(reply, on), strings.Count(reply, off); n != c.on || m != c.off || res.Refused {
			t.Errorf("%q: PICTURE ON said %d times, OFF %d, want %d and %d:\n%s", c.mail, n, m, c.on, c.off, res.Reply)
		}
	}
}
