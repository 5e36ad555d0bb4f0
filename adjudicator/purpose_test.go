package adjudicator

import (
	"testing"

	"titm/adjudicator/lang"
)

// TestPurposeText: every form of a die's purpose the rules write (B10:
// battles 9.4-9.5, repairs 10.15, demolitions 10.29) is shown translated
// in a Japanese report, the stored text unchanged in English; a purpose of
// another form is shown as stored.
func TestPurposeText(t *testing.T) {
	ja := lang.For(lang.Japanese)
	for _, c := range []struct{ in, want string }{
		{"G16-1 battle 11: Allied artillery call 1 of 1", "G16-1 戦闘 11: 連合軍の砲撃要請 (1回中1回目)"},
		{"G16-1 battle 11: German strike 2 of 2 on 4/12", "G16-1 戦闘 11: ドイツ軍の砲撃 (2回中2回目、目標 4/12)"},
		{"A17-2 battle 38: German fire 12SS/25 at 2/9, die 3 of 4", "A17-2 戦闘 38: ドイツ軍 12SS/25 が 2/9 を射撃 (4個中3個目)"},
		{"G16-1 repair 51-70 by 600E", "G16-1 600E が橋梁 51-70 の架橋を試みる"},
		{"A16-1 demolition 10-11 by 4/12", "A16-1 4/12 が橋梁 10-11 の爆破を試みる"},
		{"round 1 pairing 2: sides", "round 1 pairing 2: sides"},
	} {
		if got := PurposeText(ja, c.in); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
		if got := PurposeText(lang.EN(), c.in); got != c.in {
			t.Errorf("%q in English: %q", c.in, got)
		}
	}
}

// Forms that only look like the rules' are shown as stored.
func TestPurposeTextOthers(t *testing.T) {
	ja := lang.For(lang.Japanese)
	for _, s := range []string{"", "G16-1", "G16-1 battle 11", "G16-1 battle 11: Axis artillery call 1 of 1",
		"G16-1 battle 11: German artillery call one of 1", "G16-1 battle 11: German fire 1/2 at 3/4, die 1", "G16-1 repair 3-4"} {
		if got := PurposeText(ja, s); got != s {
			t.Errorf("%q: %q, want it as stored", s, got)
		}
	}
}
