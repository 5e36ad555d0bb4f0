package rules_test

import (
	"testing"

	"titm/rules"
)

// TestEventTextIsString: every event says itself as a message (Text) whose
// English is what the log keeps (String), word for word: replay and verify
// compare the String.
func TestEventTextIsString(t *testing.T) {
	for _, e := range []rules.TextEvent{
		rules.SupplyChange{Unit: "U/MX", InSupply: false},
		rules.SupplyChange{Unit: "U/MX", InSupply: true},
		rules.Attrited{Unit: "U/MX", Strength: 2},
		rules.Attrited{Unit: "U/MX", Eliminated: true},
		rules.Stopped{Line: 3, Order: "MOVE G/IN 5 6", Why: "bridge 5-6 is blown: armour cannot cross it (8.34)"},
		rules.Stopped{Line: 3, Order: "MOVE G/IN 5 6", Why: "bridge 5-6 is blown: armour cannot cross it (8.34)", Message: rules.M("bridge %s is blown: armour cannot cross it (8.34)", "5-6")},
		rules.Moved{Units: []string{"G/IN", "G/EN"}, Path: []rules.Place{rules.AreaPlace(5), rules.ZonePlace("C")}, MP: 3, Foot: true},
		rules.FireRoll{Unit: "U/MX", Target: "G/IN", Rolls: []int{8, 4}, Modified: []int{7, 3}, Need: 4, Hits: 1,
			Mods: []rules.Modifier{{Value: -1, Why: "attacker without combined arms", Rules: []string{"9.6"}}}},
		rules.BattleBegins{Area: 3, Attacker: rules.German, Attackers: []rules.Combatant{{ID: "G/IN", Type: rules.Infantry, Strength: 3}}, Defenders: []rules.Combatant{{ID: "U/MX", Type: rules.Mech, Strength: 2}}},
		rules.BattleEnds{Area: 3},
		rules.BattleEnds{Area: 3, Holder: rules.Allied},
		rules.StackRemoved{Unit: "G/IN", Area: 4, Why: rules.RemovedByPolicy},
		rules.StackRemoved{Unit: "G/IN", Area: 4, Why: rules.RemovedByOrder},
		rules.ScenarioVP{Area: 4, Hold: rules.HoldContested, VP: 1},
		rules.GameResult{Result: "Draw", Kind: rules.VictoryControl, Contested: 2},
	} {
		if got, want := e.Text().String(), e.String(); got != want {
			t.Errorf("%T: Text %q, String %q", e, got, want)
		}
	}
	if got := (rules.Stopped{Order: "MOVE G/IN 5 6", Why: "bridge 5-6 is blown"}).Text().String(); got != `"MOVE G/IN 5 6" stops short: bridge 5-6 is blown` {
		t.Errorf("Stopped without its message: %q", got)
	}
}

// TestMessageEnglish: a message's English writes a side by its title, a
// message among its arguments in English, and the lists with their
// conjunctions; a scenario's text is its own key.
func TestMessageEnglish(t *testing.T) {
	for _, c := range []struct {
		m    rules.Message
		want string
	}{
		{rules.M("%s is not yours to move: this is the %s impulse", "116/60", rules.Allied), "116/60 is not yours to move: this is the Allied impulse"},
		{rules.M("did you mean %s?", rules.OrList([]string{"ARTY", "ATTACK", "FIRE"})), "did you mean ARTY, ATTACK or FIRE?"},
		{rules.AndList([]string{"E", "T"}), "E and T"},
		{rules.List([]string{}), ""},
		{rules.List([]string{"a", "b", "c"}), "a, b, c"},
		{rules.Spaced([]string{"x"}), "x"},
		{rules.Plain("100% Bastogne"), "100% Bastogne"},
		{rules.Spaced([]rules.Message{rules.M("+1 entering an occupied area (8.37)"), rules.M("+%d special forces DELAY (14.22)", 1)}), "+1 entering an occupied area (8.37) +1 special forces DELAY (14.22)"},
		{rules.DataMessage("Allied decisive victory"), "Allied decisive victory"},
		{rules.DataMessage("100% German"), "100% German"},
		{rules.Spent{Unit: "116/60", Why: "moves (8.25)"}.Text(), "116/60 moves (8.25)"},
		{rules.MessageOf(rules.M("impulse %q: %d December has impulses 1 to %d", "22-2", 22, 1).Err()), `impulse "22-2": 22 December has impulses 1 to 1`},
	} {
		if got := c.m.String(); got != c.want {
			t.Errorf("%q: %q, want %q", c.m.Key, got, c.want)
		}
	}
	if m := rules.DataMessage("Allied decisive victory"); m.Key != "Allied decisive victory" {
		t.Errorf("DataMessage key %q", m.Key)
	}
}
