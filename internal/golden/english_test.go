package golden

import (
	"slices"
	"testing"

	"titm/rules/scenarios"
)

func TestEnglishWords(t *testing.T) {
	s, err := scenarios.Load("intro")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text   string
		quoted []string
		want   []string
	}{
		{"23 Körperich (ドイツ軍)      352/914 G3、15Flak G2e", nil, nil},
		{"MOVE 212/423 10 11 を受理。締切 24h、titm verify で検証", nil, nil},
		{"ログヘッド: e0c4edcbd08579bdc3a25945fc44f3d3159af318f523e21dd4fbd521c3b43c3c", nil, nil},
		{"対戦相手は troy@example.org です。Tigers in the Mist のゲーム", nil, nil},
		{"局面: Position of the\n   units", nil, []string{"Position", "of", "the", "units"}},
		{"中断しました: a question of the\n  rules", []string{"a question of the rules"}, nil},
		{"結果はAllied victory", nil, []string{"Allied", "victory"}},
	} {
		if got := EnglishWords(tc.text, s, tc.quoted...); !slices.Equal(got, tc.want) {
			t.Errorf("EnglishWords(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
