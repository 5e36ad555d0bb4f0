package adjudicator

import (
	"encoding/json"
	"testing"

	"titm/rules"
)

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{"GermanSP": "german_sp", "MP": "mp", "InSupply": "in_supply", "N": "n", "Unit": "unit", "TurnStart": "turn_start"} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEventOf: an event's record carries its fields typed, places as in
// orders, beside the report's text.
func TestEventOf(t *testing.T) {
	e := rules.Moved{Units: []string{"G/AR"}, Path: []rules.Place{rules.AreaPlace(4), rules.AreaPlace(5), rules.ZonePlace("A")}, MP: 3}
	data, err := json.Marshal(EventOf(e))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"Moved","text":"` + e.String() + `","fields":{"foot":false,"from":4,"mp":3,"path":[4,5,"A"],"to":"A","units":["G/AR"]}}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
}
