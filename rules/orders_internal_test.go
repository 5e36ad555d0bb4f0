package rules

import "testing"

func TestKindTableFits(t *testing.T) {
	if len(kinds) > maxKinds {
		t.Fatalf("%d order kinds; raise maxKinds (%d)", len(kinds), maxKinds)
	}
	for i, k := range kinds {
		if k.index != i || kindByKeyword(k.keyword) != k {
			t.Errorf("kind %s indexed wrongly", k.keyword)
		}
	}
}

// 10.29: the demolition table.
func TestDemolitionNeed_10_29(t *testing.T) {
	tests := []struct {
		t     UnitType
		moved bool
		want  int
	}{
		{Engineer, false, 8}, {Engineer, true, 4},
		{Infantry, false, 4}, {Infantry, true, 2},
		{Mech, false, 4}, {Mot, true, 2},
	}
	for _, tt := range tests {
		if got := demolitionNeed(tt.t, tt.moved); got != tt.want {
			t.Errorf("%s moved %v: %d, want %d", tt.t, tt.moved, got, tt.want)
		}
	}
}
