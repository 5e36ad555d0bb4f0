package rules_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"titm/rules"
)

func TestState_JSONRoundTrip(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "MOVE G/MX 4 3")
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	back, err := rules.LoadState(s, data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(data) {
		t.Errorf("state changed through JSON:\n%s\n%s", data, again)
	}
	if _, err := rules.LoadState(s, []byte(`{"scenario":"intro"}`)); err == nil || !strings.Contains(err.Error(), `the saved state is of scenario "intro", not "move"`) {
		t.Errorf("foreign state: %v", err)
	}
	// Playing on from the loaded state gives what playing on from the
	// original gives.
	a, _ := mustPlay(t, s, st, "")
	b, _ := mustPlay(t, s, back, "")
	if !reflect.DeepEqual(mustJSON(t, a), mustJSON(t, b)) {
		t.Errorf("different play after reload")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
