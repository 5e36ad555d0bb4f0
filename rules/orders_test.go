package rules_test

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/referee"
	"titm/internal/golden"
	"titm/rules"
	"titm/rules/scenarios"
)

var (
	loadOnce sync.Once
	loaded   map[string]*rules.Scenario
)

// scenario returns a shipped scenario, loaded once for all tests.
func scenario(t testing.TB, name string) *rules.Scenario {
	t.Helper()
	loadOnce.Do(func() {
		loaded = map[string]*rules.Scenario{}
		for _, n := range scenarios.Names {
			s, err := scenarios.Load(n)
			if err != nil {
				panic(err)
			}
			loaded[n] = s
		}
	})
	return loaded[name]
}

func a(n int) rules.Place { return rules.AreaPlace(n) }

// mailOpts reads orders as the referee reads a player's mail: with the
// heading lines and the requests it adds to the game's orders.
func mailOpts(side rules.Side) *rules.ParseOptions {
	return &rules.ParseOptions{Side: side, Keywords: referee.Keywords}
}

// gameOf returns the GAME line's game, or "".
func gameOf(o *rules.Orders) string {
	for _, ord := range o.List {
		if g, ok := ord.(adjudicator.GameLine); ok {
			return g.ID
		}
	}
	return ""
}

// tokenOf returns the TOKEN line's secret, or "".
func tokenOf(o *rules.Orders) string {
	for _, ord := range o.List {
		if t, ok := ord.(adjudicator.TokenLine); ok {
			return t.Secret
		}
	}
	return ""
}

// TestParseValid parses one line of every order kind and checks the typed
// order, its canonical text, and that the canonical text reads back equal.
func TestParseValid(t *testing.T) {
	tests := []struct {
		side  rules.Side
		in    string
		want  rules.Order
		canon string
	}{
		// 8.2, 8.3, 8.21: a stack along roads; the first area may be its own.
		{rules.German, "MOVE 116/16 116/156 52 51", rules.Move{Units: []string{"116/16", "116/156"}, Path: []rules.Place{a(52), a(51)}}, ""},
		// 8.42, B2: ELSE from the near side of a bridge.
		{rules.German, "move 116/16 116/156 52 51 70 else 51 50", rules.Move{Units: []string{"116/16", "116/156"}, Path: []rules.Place{a(52), a(51), a(70)}, Else: [][]rules.Place{{a(51), a(50)}}}, "MOVE 116/16 116/156 52 51 70 ELSE 51 50"},
		// 8.34: moving as infantry across the blown bridge 51-70.
		{rules.German, "FOOT 2/304 51 70", rules.Move{Foot: true, Units: []string{"2/304"}, Path: []rules.Place{a(51), a(70)}}, ""},
		// 11.12: from a zone onto the map; a unique ending names the unit.
		{rules.German, "Move 33 a", rules.Move{}, "skip"},
		{rules.Allied, "MOVE 18cav 32 31", rules.Move{Units: []string{"106/18Cav"}, Path: []rules.Place{a(32), a(31)}}, "MOVE 106/18Cav 32 31"},
		// 8.5: mech entrenches.
		{rules.German, "entrench 116/60", rules.Entrench{Units: []string{"116/60"}}, "ENTRENCH 116/60"},
		// 9.13, 9.14
		{rules.German, "ATTACK 70", rules.Attack{Area: 70}, ""},
		{rules.German, "ATTACK 70 WITH 2/304 600E", rules.Attack{Area: 70, With: []string{"2/304", "600E"}}, ""},
		// 9.5, B3: spaces round > are allowed.
		{rules.German, "FIRE 70 2/304>28/110 600e > 28/110", rules.Fire{Area: 70, Pairs: []rules.FirePair{{"2/304", "28/110"}, {"600E", "28/110"}}}, "FIRE 70 2/304>28/110 600E>28/110"},
		// 9.46: a unit may take more than one strike.
		{rules.German, "ARTY 70 28/110 28/110", rules.Arty{Area: 70, Targets: []string{"28/110", "28/110"}}, ""},
		// B4
		{rules.German, "BATTLES 70 71", rules.Battles{Areas: []int{70, 71}}, ""},
		// 10.1: the bridge either way round.
		{rules.German, "REPAIR 70-51 BY 600E", rules.Repair{Bridge: rules.Bridge{A: 51, B: 70}, Unit: "600E"}, "REPAIR 51-70 BY 600E"},
		// 14.22, 14.24
		{rules.German, "SF 52 CONFUSION 70", rules.SpecialForces{Area: 52, Effect: "CONFUSION", Battle: 70}, ""},
		{rules.German, "sf 67 delay", rules.SpecialForces{Area: 67, Effect: "DELAY"}, "SF 67 DELAY"},
		// 7.2, B6
		{rules.German, "REMOVE 51 2/AA", rules.Remove{Area: 51, Units: []string{"2/AA"}}, ""},
		// 10.2, B1
		{rules.Allied, "BLOW ALL", rules.Blow{All: true}, ""},
		{rules.Allied, "blow none", rules.Blow{None: true}, "BLOW NONE"},
		{rules.Allied, "BLOW 70-51 BY 28/110 55-69", rules.Blow{Bridges: []rules.BlowSpec{{Bridge: rules.Bridge{A: 51, B: 70}, Unit: "28/110"}, {Bridge: rules.Bridge{A: 55, B: 69}}}}, "BLOW 51-70 BY 28/110 55-69"},
		// 9.5, B3
		{rules.Allied, "DEFEND 70 28/110>2/304", rules.Defend{Area: 70, Pairs: []rules.FirePair{{"28/110", "2/304"}}}, ""},
		{rules.Allied, "DEFEND PREFER armour inf", rules.Defend{Prefer: []rules.UnitType{rules.Armor, rules.Infantry}}, "DEFEND PREFER ARMOR INFANTRY"},
		// Requests.
		{"", "HELP", referee.HelpRequest{}, ""},
		{"", "status", referee.StatusRequest{}, "STATUS"},
		{"", "UNITS", referee.UnitsRequest{}, ""},
		{"", "CHECK", referee.CheckRequest{}, ""},
		{"", "DICE", referee.DiceRequest{}, ""},
		{"", "ORDERS", referee.OrdersRequest{}, ""},
		{"", "CONCEDE", referee.ConcedeRequest{}, ""},
		{"", "DRAW", referee.DrawRequest{}, ""},
		{"", "draw accept", referee.DrawRequest{Accept: true}, "DRAW ACCEPT"},
		{"", "JOIN", referee.JoinRequest{}, ""},
		{"", "join seed  Lucky,   Seven >> 7", referee.JoinRequest{Seed: "Lucky, Seven >> 7"}, "JOIN SEED Lucky, Seven >> 7"},
		{"", "EXTEND 24H", referee.ExtendRequest{Hours: 24}, "EXTEND 24h"},
		// Heading lines; a typographic dash is a dash.
		{"", "GAME bulge-7", adjudicator.GameLine{ID: "bulge-7"}, ""},
		{"", "TOKEN k7f3-29xq-pp01", adjudicator.TokenLine{Secret: "k7f3-29xq-pp01"}, ""},
		{"", "IMPULSE 17\u20132", rules.ImpulseLine{Day: 17, N: 2}, "IMPULSE 17-2"},
		{"", "END", rules.EndLine{}, ""},
		{"", "end of my orders", rules.EndLine{}, "END"},
	}
	s := scenario(t, "campaign")
	seen := map[string]bool{}
	for _, tt := range tests {
		if tt.canon == "skip" {
			continue
		}
		t.Run(tt.in, func(t *testing.T) {
			o, err := rules.ParseOrders(tt.in, s, mailOpts(tt.side))
			if err != nil {
				t.Fatalf("errors: %v", err)
			}
			if len(o.List) != 1 || !reflect.DeepEqual(o.List[0], tt.want) {
				t.Fatalf("got %#v, want %#v", o.List, tt.want)
			}
			canon := tt.canon
			if canon == "" {
				canon = tt.in
			}
			if got := o.List[0].String(); got != canon {
				t.Errorf("canonical %q, want %q", got, canon)
			}
			back, err := rules.ParseOrders(o.Format(), s, mailOpts(tt.side))
			if err != nil || !reflect.DeepEqual(back.List, o.List) {
				t.Errorf("parse(format(x)) = %#v, %v; want %#v", back.List, err, o.List)
			}
			seen[o.List[0].Keyword()] = true
		})
	}
	for _, kw := range strings.Split("GAME TOKEN IMPULSE END MOVE FOOT ENTRENCH ATTACK FIRE ARTY BATTLES REPAIR SF REMOVE BLOW DEFEND HELP STATUS UNITS CHECK DICE JOIN ORDERS EXTEND CONCEDE DRAW", " ") {
		if !seen[kw] {
			t.Errorf("no valid case for %s", kw)
		}
	}
}

// A number with a letter for a digit is read as a place written wrong
// only where it is no unit's id: G/I2 is a unit of the combat tests.
func TestParse_LetterForDigitOrUnit(t *testing.T) {
	s, err := rules.LoadScenario(readOS, "../testdata/combat/scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	o, err := rules.ParseOrders("MOVE I2 4 3", s, nil)
	if err != nil || o.List[0].(rules.Move).Units[0] != "G/I2" {
		t.Errorf("MOVE I2 4 3: %v %v", o, err)
	}
	_, err = rules.ParseOrders("MOVE G/AR 4 3 2O", s, nil)
	if err == nil || !strings.Contains(err.Error(), "2O is not an area number: did you mean 20?") {
		t.Errorf("MOVE G/AR 4 3 2O: %v", err)
	}
	// Prose is not taken for a keyword written wrong.
	_, err = rules.ParseOrders("Hello\nThanks", s, nil)
	if err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("prose: %v", err)
	}
}

// TestParseInvalid checks the message of each kind of mistake.
func TestParseInvalid(t *testing.T) {
	tests := []struct {
		scen string
		side rules.Side
		in   string
		line int
		want []string
	}{
		{"campaign", rules.German, "MARCH 116/60 50", 1, []string{`unknown order "MARCH": the line names a unit or an area, so it is read as an order, not as a greeting or a sign-off. A line starts with one of GAME, TOKEN, IMPULSE, END, MOVE`}},
		{"campaign", rules.German, "MOVE 116/06 52 51", 1, []string{"unknown unit 116/06; closest: ", "116/60", "116/16"}},
		{"campaign", rules.German, "MOVE 116/60 Bastogn", 1, []string{"unknown unit Bastogn; closest: Bastogne (88)"}},
		{"campaign", rules.German, "MOVE 116/60 50 88", 1, []string{"no road joins Lützkampen (50) and Bastogne (88): units move only along roads (3.22); from 50 roads lead to"}},
		{"campaign", rules.German, "MOVE 116/60 50 999", 1, []string{"there is no area 999 on the map"}},
		{"campaign", rules.German, "MOVE 116/60 50 Q", 1, []string{"Q is not a zone: zones are the letters A to P"}},
		{"campaign", rules.German, "MOVE 116/60", 1, []string{"the path is missing: after the units, the area numbers they move through, as MOVE 116/60 62 70"}},
		{"campaign", rules.German, "MOVE 52 51", 1, []string{"no unit given: name the units to move"}},
		{"campaign", rules.German, "MOVE 116/60 116/60 50", 1, []string{"116/60 is named twice"}},
		{"campaign", rules.German, "MOVE 116/16 52 51 70 ELSE 70", 1, []string{"ELSE needs a path"}},
		{"campaign", rules.German, "MOVE 116/16 52 51 ELSE 50 49", 1, []string{"ELSE 50 49: the alternative path starts where the stack would stop, one of the areas of the path (8.42)"}},
		{"campaign", rules.German, "MOVE 28/110 70 71", 1, []string{"28/110 is an Allied unit: you command the German units"}},
		{"campaign", rules.German, "MOVE CCB 43", 1, []string{"unit CCB is ambiguous: it could be ", "9AD/CCB", "7AD/CCB"}},
		{"campaign", rules.Allied, "MOVE 106/18Cav 32 33 A", 1, []string{"zone A is closed to Allied units (11.22, 11.23)"}},
		{"campaign", rules.German, "FOOT 116/16 52 51", 1, []string{"116/16 is armour, which cannot move as infantry (8.34"}},
		{"campaign", rules.German, "MOVE 116/60 50 49\nMOVE 116/60 50 72", 2, []string{"116/60 already moves on line 1"}},
		{"campaign", rules.German, "ENTRENCH 116/16", 1, []string{"116/16 is armour, which never entrenches (8.54)"}},
		{"campaign", rules.German, "ATTACK B", 1, []string{"zone B is not an area; there are no battles in zones (9.17)"}},
		{"campaign", rules.German, "FIRE 70 2/304>28/110 2/304>28/109", 1, []string{"2/304 is given two targets: a unit fires all its dice at one target (9.58)"}},
		{"campaign", rules.German, "FIRE 70 2/304", 1, []string{"2/304 is not a unit and its target: write unit>target"}},
		{"campaign", rules.German, "FIRE 70 2/304>2/3", 1, []string{"2/3 is one of your own units: a target must be an enemy unit"}},
		{"campaign", rules.German, "ARTY 70", 1, []string{"no unit given: name the enemy units your strikes go to"}},
		{"campaign", rules.German, "BATTLES 70 70", 1, []string{"area 70 is named twice"}},
		{"campaign", rules.German, "BATTLES 70\nBATTLES 71", 2, []string{"a second BATTLES line (the first is line 1): a mail has one"}},
		{"campaign", rules.German, "REPAIR 51-52 BY 600E", 1, []string{"the road Dasburg (51) - Daleiden (52) crosses no river, so it has no bridge; bridges there: 51-70"}},
		{"campaign", rules.German, "REPAIR 51-88 BY 600E", 1, []string{"no road joins Dasburg (51) and Bastogne (88), so there is no bridge 51-88"}},
		{"campaign", rules.German, "REPAIR 51-70 BY 2/304", 1, []string{"2/304 is mech: only engineers repair bridges (10.11)"}},
		{"campaign", rules.German, "REPAIR 51-70", 1, []string{"the engineer is missing: REPAIR 51-70 BY unit"}},
		// A bridge the map lacks is quoted as written, not as 0-0.
		{"intro", rules.German, "REPAIR 51-70", 1, []string{"the engineer is missing: REPAIR 51-70 BY unit"}},
		{"campaign", rules.German, "SF 88 DELAY", 1, []string{"Bastogne (88) is a VP area: special forces go to an area that is not (14.12)"}},
		{"campaign", rules.German, "SF 52 CONFUSION", 1, []string{"CONFUSION needs the battle it affects: SF 52 CONFUSION battle-area (14.24)"}},
		{"campaign", rules.German, "SF 52 PANIC", 1, []string{"PANIC is not an effect: DELAY, DEMOLITION or CONFUSION (14.21)"}},
		{"campaign", rules.German, "IMPULSE 17-3\nSF 52 DELAY", 2, []string{"DELAY cannot be chosen in a third impulse (14.22), and this is 17-3"}},
		{"campaign", rules.Allied, "SF 52 DELAY", 1, []string{"special forces are German, placed in a German impulse (14.12)"}},
		{"intro", rules.German, "SF 12 DELAY", 1, []string{"The 7th Army Attacks has no special forces (14.0)"}},
		{"intro", rules.German, "MOVE 212/316 18 88", 1, []string{"Bastogne (88) is outside the map of The 7th Army Attacks"}},
		// The 5th Panzer scenario: only units that set up or arrive outside
		// its map may be ordered through areas outside it (70T, 7 Arm ...);
		// 2SS Pz waits in B, the one of its zones on the map.
		{"fifth-panzer", rules.Allied, "MOVE 1107E 58 59", 1, []string{"Mersch (59) is outside the map of The 5th Panzer Army vs VIII Corps"}},
		{"fifth-panzer", rules.German, "MOVE 2SS/2 A 33", 1, []string{"zone A is outside the map of The 5th Panzer Army vs VIII Corps"}},
		{"intro", rules.German, "MOVE 116/60 50", 1, []string{"unit 116/60 does not take part in The 7th Army Attacks"}},
		{"campaign", rules.Allied, "BLOW 51-70 BY 28/707", 1, []string{"28/707 is armour, which cannot blow bridges (10.22)"}},
		{"campaign", rules.Allied, "BLOW", 1, []string{"BLOW takes ALL, NONE, or bridges as 51-70"}},
		{"campaign", rules.Allied, "DEFEND PREFER tanks horses", 1, []string{"horses is not a unit type: ARMOR, ENGINEER, MECH, MOT or INFANTRY (4.11)"}},
		{"campaign", "", "IMPULSE 23-1", 1, []string{"the day must be 16 to 22"}},
		{"campaign", "", "IMPULSE 22-2", 1, []string{"22 December has impulses 1 to 1"}},
		{"intro", "", "IMPULSE 19-1", 1, []string{"The 7th Army Attacks is played from 16 to 18 December"}},
		{"campaign", "", "IMPULSE 17", 1, []string{"impulse \"17\" is not of the form day-impulse, as 17-1"}},
		{"campaign", "", "EXTEND forever", 1, []string{"forever is not a time: give hours from 1 to 168, as EXTEND 24h"}},
		{"campaign", "", "GAME", 1, []string{"the game's id is missing"}},
		{"campaign", "", "GAME a\nGAME b", 2, []string{"a second GAME line"}},
		{"campaign", "", "JOIN SEED", 1, []string{"SEED needs your text"}},
		{"campaign", "", "HELP me", 1, []string{`"me" is more than HELP takes: HELP`}},
		{"campaign", "", "TOKEN", 1, []string{"the secret is missing: TOKEN secret, as in your welcome mail"}},
		{"campaign", "", "TOKEN a b", 1, []string{`"b" is more than TOKEN takes: TOKEN secret`}},
		{"campaign", rules.German, "REMOVE 51", 1, []string{"no unit given: name the units to remove first, as REMOVE 71 28/112"}},
		{"campaign", rules.German, "REMOVE C 2/AA", 1, []string{"REMOVE area: zone C is not an area"}},
		{"campaign", rules.German, "ATTACK", 1, []string{"ATTACK area: an area number is missing"}},
		{"campaign", rules.German, "ATTACK 70 WITH", 1, []string{"no unit given: name the units after WITH"}},
		{"campaign", "", "STATUS now", 1, []string{`"now" is more than STATUS takes: STATUS`}},
		{"campaign", "", "UNITS all", 1, []string{`"all" is more than UNITS takes: UNITS`}},
		{"campaign", "", "CHECK 12", 1, []string{`"12" is more than CHECK takes: CHECK`}},
		{"campaign", "", "DICE 3", 1, []string{`"3" is more than DICE takes: DICE`}},
		{"campaign", "", "ORDERS please", 1, []string{`"please" is more than ORDERS takes: ORDERS`}},
		{"campaign", "", "CONCEDE 5", 1, []string{`"5" is more than CONCEDE takes: CONCEDE`}},
		{"campaign", "", "DRAW REJECT", 1, []string{`"REJECT" is more than DRAW takes: DRAW | DRAW ACCEPT`}},
		{"campaign", "", "EXTEND", 1, []string{"how long is missing: EXTEND 24h"}},
		{"campaign", "", "", 1, []string{"no orders found"}},
		{"campaign", "", "> MOVE 116/60 50\n-- \nMOVE 116/60 50", 1, []string{"no orders found"}},
		// A keyword written wrong is named.
		{"campaign", rules.German, "ATACK 70", 1, []string{`unknown order "ATACK": did you mean ATTACK? A line starts with one of GAME, TOKEN, IMPULSE, END, MOVE`}},
		{"campaign", rules.German, "ENTRENHC 116/60", 1, []string{`unknown order "ENTRENHC": did you mean ENTRENCH?`}},
		{"campaign", rules.German, "ATTACK 70 WIHT 2/304", 1, []string{`"WIHT 2/304" is more than ATTACK takes: ATTACK area [WITH unit...]; did you mean WITH?`}},
		{"campaign", rules.German, "MOVE 116/16 52 51 70 ELS 51 50", 1, []string{`"ELS 51 50" is more than MOVE takes: MOVE unit... path [ELSE path]; did you mean ELSE?`}},
		{"campaign", rules.German, "REPAIR 51-70 BI 600E", 1, []string{"the engineer is missing: REPAIR 51-70 BY unit; did you mean BY?"}},
		{"campaign", rules.German, "SF 52 DELY", 1, []string{"DELY is not an effect: DELAY, DEMOLITION or CONFUSION (14.21); did you mean DELAY?"}},
		{"campaign", rules.Allied, "BLOW NON", 1, []string{"NON is not a bridge: a bridge is written by its two areas, as 51-70; did you mean NONE?"}},
		{"campaign", rules.Allied, "DEFEND PREFER ARMUR", 1, []string{"ARMUR is not a unit type: ARMOR, ENGINEER, MECH, MOT or INFANTRY (4.11); did you mean ARMOR?"}},
		// A letter for a digit in a number is named as such.
		{"campaign", rules.German, "MOVE 116/16 52 5l 70", 1, []string{"5l is not an area number: did you mean 51?"}},
		{"campaign", rules.German, "MOVE 116/60 5O 49", 1, []string{"5O is not an area number: did you mean 50?"}},
		{"campaign", rules.German, "ATTACK 7O", 1, []string{"7O is not an area number: did you mean 70?"}},
		{"campaign", rules.Allied, "BLOW 51-7O", 1, []string{"51-7O is not a bridge: a bridge is written by its two areas, as 51-70; did you mean 51-70?"}},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		if f := strings.Fields(tt.in); len(f) > 0 {
			seen[strings.ToUpper(f[0])] = true
		}
		t.Run(tt.in, func(t *testing.T) {
			_, err := rules.ParseOrders(tt.in, scenario(t, tt.scen), mailOpts(tt.side))
			var es rules.OrderErrors
			if !errors.As(err, &es) {
				t.Fatalf("error %v, want OrderErrors", err)
			}
			var hit *rules.OrderError
			for i, e := range es {
				if e.Line == tt.line && strings.Contains(e.Msg, tt.want[0]) {
					hit = &es[i]
				}
			}
			if hit == nil {
				t.Fatalf("errors:\n%v\nwant at line %d: %q", es, tt.line, tt.want[0])
			}
			for _, w := range tt.want[1:] {
				if !strings.Contains(hit.Msg, w) {
					t.Errorf("message %q lacks %q", hit.Msg, w)
				}
			}
			lines := strings.Split(tt.in, "\n")
			if hit.Text != "" && hit.Text != strings.TrimSpace(lines[tt.line-1]) {
				t.Errorf("quotes %q, want the line %q", hit.Text, lines[tt.line-1])
			}
			if !strings.HasPrefix(hit.Error(), "line ") {
				t.Errorf("error text %q does not start with the line", hit.Error())
			}
		})
	}
	// END takes the rest of its line, so it has no invalid form.
	for _, kw := range strings.Split("GAME TOKEN IMPULSE MOVE FOOT ENTRENCH ATTACK FIRE ARTY BATTLES REPAIR SF REMOVE BLOW DEFEND HELP STATUS UNITS CHECK DICE JOIN ORDERS EXTEND CONCEDE DRAW", " ") {
		if !seen[kw] {
			t.Errorf("no invalid case for %s", kw)
		}
	}
}

// TestParseMailBody reads a real mail body: CRLF, tabs, mixed case, quoted
// lines, comments, typographic dashes, non-breaking spaces, a signature.
func TestParseMailBody(t *testing.T) {
	body := "\uFEFFGame bulge-7\r\n\tTOKEN  k7f3\r\nimpulse 17\u20141\r\n\r\n" +
		"> MOVE 28/110 70 71\r\n" +
		"Move\u00a0116/60 50 49   # round by Burg-Reuland\r\n" +
		"REPAIR 51\u201370 by 600e\r\n" +
		"-- \r\nJoachim\r\nMOVE 116/16 52 51\r\n"
	o, err := rules.ParseOrders(body, scenario(t, "campaign"), mailOpts(rules.German))
	if err != nil {
		t.Fatal(err)
	}
	want := "GAME bulge-7\nTOKEN k7f3\nIMPULSE 17-1\nMOVE 116/60 50 49\nREPAIR 51-70 BY 600E\n"
	if got := o.Format(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !reflect.DeepEqual(o.Lines, []int{1, 2, 3, 6, 7}) {
		t.Errorf("lines %v", o.Lines)
	}
	if gameOf(o) != "bulge-7" || tokenOf(o) != "k7f3" {
		t.Errorf("game %q token %q", gameOf(o), tokenOf(o))
	}
	if i, ok := o.Impulse(); !ok || i.Of(rules.German).String() != "G17-1" {
		t.Errorf("impulse %v", i)
	}

	// A reply: everything from the quoted header on is ignored, END too.
	for _, stop := range []string{
		"On Sat, 16 Dec 1944 at 05:30, Hasso wrote:\nMOVE 116/16 52 51",
		"-----Original Message-----\nMOVE 116/16 52 51",
		"---------- Forwarded message ---------\nMOVE 116/16 52 51",
		"END\nMOVE 116/16 52 51 and more words",
		"Sent from my phone\nMOVE 116/16 52 51",
	} {
		o, err := rules.ParseOrders("MOVE 116/60 50\n"+stop, scenario(t, "campaign"), mailOpts(""))
		if err != nil || len(o.List) < 1 || o.List[0].String() != "MOVE 116/60 50" || strings.Contains(o.Format(), "116/16") {
			t.Errorf("%q: %v %v", stop, o.Format(), err)
		}
	}

	// Every error of a mail together, in line order.
	_, err = rules.ParseOrders("MOVE 116/06 50\nENTRENCH 116/16\nBATTLES 70\nFIRE 70 x", scenario(t, "campaign"), mailOpts(""))
	var es rules.OrderErrors
	if !errors.As(err, &es) || len(es) != 3 || es[0].Line != 1 || es[1].Line != 2 || es[2].Line != 4 {
		t.Errorf("errors: %v", err)
	}
}

// TestParseWithoutScenario reads the heading before the game is known.
func TestParseWithoutScenario(t *testing.T) {
	o, err := rules.ParseOrders("GAME g1\nTOKEN t\nMOVE anything 12 13\nREPAIR 1-2 BY x", nil, mailOpts(""))
	if err != nil || gameOf(o) != "g1" || tokenOf(o) != "t" || len(o.List) != 4 {
		t.Errorf("%v %v", o.Format(), err)
	}
}

// TestHelpGolden compares the HELP text with its golden files and checks
// that every example in it is a valid order.
func TestHelpGolden(t *testing.T) {
	for _, c := range []struct {
		scen string
		side rules.Side
	}{{"campaign", rules.German}, {"campaign", rules.Allied}, {"intro", rules.German}} {
		s := scenario(t, c.scen)
		got := referee.HelpIn(lang.EN(), s, nil, c.side)
		golden.Check(t, "../testdata/golden/help-"+c.scen+"-"+string(c.side)+".txt", got)
		for _, line := range strings.Split(got, "\n") {
			if len(line) > 80 {
				t.Errorf("line longer than 80 columns: %q", line)
			}
			ex, ok := strings.CutPrefix(strings.TrimSpace(line), "e.g. ")
			if !ok {
				continue
			}
			if _, err := rules.ParseOrders(ex, s, mailOpts(c.side)); err != nil {
				t.Errorf("%s %s: example %q: %v", c.scen, c.side, ex, err)
			}
		}
		// The example mail, without its placeholder heading, is valid too.
		_, mail, _ := strings.Cut(got, "TOKEN <your secret>\n")
		if _, err := rules.ParseOrders(mail, s, mailOpts(c.side)); err != nil {
			t.Errorf("%s %s: example mail: %v", c.scen, c.side, err)
		}
		for _, kw := range []string{"MOVE unit... path [ELSE path]", "BLOW ALL | BLOW NONE", "JOIN [SEED text]", "IMPULSE day-n"} {
			if !strings.Contains(got, kw) {
				t.Errorf("HELP lacks %q", kw)
			}
		}
	}
}

// FuzzParse: the parser never panics, every error names a line of the mail,
// and the canonical text of what it read reads back the same.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"GAME bulge-7\nTOKEN k7f3\nIMPULSE 17-2\nMOVE 116/16 116/156 52 51 70 ELSE 51 50\nFOOT 2/304 51 70\nEND",
		"ENTRENCH 116/60\nATTACK 70 WITH 2/304\nFIRE 70 2/304>28/110\nARTY 70 28/110\nBATTLES 70 71\nREPAIR 51-70 BY 600E\nSF 52 CONFUSION 70\nREMOVE 51 2/AA",
		"BLOW 51-70 BY 28/110 55-69\nDEFEND 70 28/110>2/304\nDEFEND PREFER ARMOR\nJOIN SEED x y\nEXTEND 24h\nDRAW ACCEPT",
		"> quoted\r\n-- \r\nsig", "<b>html</b>", "MOVE 116/06 Bastogn", realisticMail,
		"Hi Hans,\n\nMOVE 116/60 50 49\nThanks, Hans\n\nCheers,\nTony", "MOVE 116/60 50 49\nafter that\nREPAIR 51-70 BY 600E",
		"GAME g\nTOKEN t\nMit freundlichen Grüßen\n", "IMPULSE 16-1\nnothing\nEND", "MOEV 116/16 62 70\nLove, Tony\n____\nMOVE x",
	} {
		f.Add(seed)
	}
	s := scenario(f, "campaign")
	f.Fuzz(func(t *testing.T, body string) {
		o, err := rules.ParseOrders(body, s, mailOpts(""))
		var es rules.OrderErrors
		if err != nil && !errors.As(err, &es) {
			t.Fatalf("error %v is not OrderErrors", err)
		}
		nlines := strings.Count(body, "\n") + strings.Count(body, "\r") + 1
		for _, e := range es {
			if e.Line < 1 || e.Line > nlines || e.Msg == "" {
				t.Fatalf("error without a line of the mail: %+v", e)
			}
		}
		back, _ := rules.ParseOrders(o.Format(), s, mailOpts(""))
		if !reflect.DeepEqual(back.List, o.List) {
			t.Fatalf("parse(format(parse(x))) differs:\n%q\n%q", o.Format(), back.Format())
		}
	})
}

// realisticMail is a German player's mail for a busy impulse: 60 lines.
const realisticMail = `GAME bulge-7
TOKEN k7f3-29xq-pp01
IMPULSE 17-2

# the northern shoulder
MOVE 1SS/1 33 34
MOVE 12SS/25 12SS/26 A 33
MOVE 3FJ/9 3FJ/5 33 32
MOVE 12/48 12/89 33 32 31
MOVE 326/751 326/752 40 39
MOVE 277/989 39 38
FIRE 34 1SS/1>99/394
FIRE 38 277/989>99/393

# the Schnee Eifel
MOVE 18/293 B 29
MOVE 18/294 B 31
MOVE 62/164 62/183 27 28
FIRE 29 18/293>106/423
FIRE 31 18/294>106/422 12/48>106/422
FIRE 28 62/164>106/424 62/183>106/424

# the Our
MOVE 116/16 116/156 52 51 70 ELSE 51 50
MOVE 116/60 50 49 ELSE 50 51
FOOT 2/304 51 70
FOOT 2/2 51 70
REPAIR 51-70 BY 600E
FIRE 70 2/304>28/110 2/2>28/110
ARTY 70 28/110 28/110
MOVE 26/77 26/39 55 69
FOOT 207E 55 69
MOVE 26/78 53 54 55
FIRE 69 26/77>28/3-110 26/39>28/3-110
BATTLES 70 69 29 31 28

# the 7th Army
MOVE 352/914 23 24
MOVE 352/915 24 19
MOVE 276/986 276/987 19 20
REPAIR 19-20 BY 605E
MOVE 212/316 18 10
MOVE 212/320 212/423 10 11
FOOT 47-2E 10 11
FIRE 11 212/320>4/12 212/423>4/12
ARTY 11 4/12
ENTRENCH 5FJ/14 5FJ/15
ENTRENCH 5FJ/13
REMOVE 33 12/27

SF 52 CONFUSION 70
BLOW ALL
DEFEND PREFER ARMOR INFANTRY
DEFEND 34 1SS/1>99/394
ORDERS
UNITS

END
--
Hasso
`

// TestRealisticMail: the benchmark's mail is a valid German mail.
func TestRealisticMail(t *testing.T) {
	o, err := rules.ParseOrders(realisticMail, scenario(t, "campaign"), mailOpts(rules.German))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(realisticMail, "\n"); n != 60 {
		t.Errorf("the mail has %d lines, want 60", n)
	}
	if len(o.List) < 45 {
		t.Errorf("%d orders", len(o.List))
	}
}

// BenchmarkParseOrders parses a realistic 60-line order mail; the target is
// under 50 µs per mail.
func BenchmarkParseOrders(b *testing.B) {
	s := scenario(b, "campaign")
	opt := mailOpts(rules.German) // the mail's GAME, TOKEN and requests too
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rules.ParseOrders(realisticMail, s, opt); err != nil {
			b.Fatal(err)
		}
	}
}
