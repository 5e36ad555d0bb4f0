package rules

import (
	"encoding/json"
	"testing"
)

// A position at the end of 22 December, whose next impulse is the one
// after the last, reads back as it was written: a finished campaign game
// can be stored and read. No order may name that impulse.
func TestAfterLastReadsBack(t *testing.T) {
	data, err := json.Marshal(struct{ Next Impulse }{AfterLast})
	if err != nil {
		t.Fatal(err)
	}
	var back struct{ Next Impulse }
	if err := json.Unmarshal(data, &back); err != nil || back.Next != AfterLast || AfterLast.String() != "G23-1" {
		t.Errorf("%s: %v, %v", data, err, back.Next)
	}
	for _, s := range []string{"G23-1", "A23-1", "G23-2"} {
		if _, err := ParseImpulse(s); err == nil {
			t.Errorf("ParseImpulse(%q) takes it", s)
		}
	}
	if err := json.Unmarshal([]byte(`{"Next":"A23-1"}`), &back); err == nil {
		t.Error("A23-1 reads as an impulse")
	}
}
