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
