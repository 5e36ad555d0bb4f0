package webverify

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
	"titm/internal/golden"
	"titm/internal/playout"
	"titm/rules/scenarios"
)

// finished plays a game of a scenario to its end, every unit attacking
// where it can, and returns its export.
func finished(t testing.TB, scenario, id string) *adjudicator.Export {
	t.Helper()
	g, log, err := playout.Game(scenario, id, 5)
	if err != nil {
		t.Fatal(err)
	}
	return adjudicator.MakeExport(g, log)
}

func encode(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// forgeDie changes the first die of the first impulse that rolled one,
// and rebuilds the hash chain after it (every hash, prev and the head),
// so that only the replay can tell. It returns the record changed.
func forgeDie(t testing.TB, x *adjudicator.Export) int {
	t.Helper()
	seq := -1
	for i, r := range x.Records {
		if r.Kind == adjudicator.KindImpulse && len(r.Dice) > 0 {
			r.Dice = append([]adjudicator.Roll(nil), r.Dice...)
			r.Dice[0].Value = r.Dice[0].Value%6 + 1
			x.Records[i], seq = r, i
			break
		}
	}
	if seq < 0 {
		t.Fatal("no impulse rolled a die")
	}
	prev := ""
	for i := range x.Records {
		x.Records[i].Prev = prev
		x.Records[i].Hash = adjudicator.RecordHash(x.Records[i])
		prev = x.Records[i].Hash
	}
	x.Head = prev
	return seq
}

func TestCheckGame(t *testing.T) {
	x := finished(t, "three-days", "three-1")
	data := encode(t, x)
	impulse := x.Records[len(x.Records)/2].Hash
	for _, tt := range []struct {
		name string
		head string
		ok   bool
		want string
	}{
		{"whole", "", true, "verified: game three-1: "},
		{"with a head", strings.ToUpper(impulse), true, "verified: game three-1: "},
		{"with another head", strings.Repeat("ab", 32), false, "no record of the log has the hash abab"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(data, tt.head)
			if r.OK != tt.ok || r.Kind != KindGame || r.ID != "three-1" || !strings.HasPrefix(r.Summary, strings.TrimSuffix(tt.want, "abab")) && !strings.Contains(r.Summary, tt.want) {
				t.Fatalf("%+v", r)
			}
			if r.Records != len(x.Records) || r.Seq != -1 || r.Note != "" {
				t.Errorf("%+v", r)
			}
			if r.OK && r.Head != x.Head {
				t.Errorf("head %s, want %s", r.Head, x.Head)
			}
			if !r.OK && r.Head != "" {
				t.Errorf("a failed verification gives the head %s", r.Head)
			}
			if r.HeadFound != (tt.head != "" && tt.ok) {
				t.Errorf("head found: %v", r.HeadFound)
			}
		})
	}
}

// A die changed with the chain rebuilt: the verifier names the record and
// gives no head.
func TestCheckForgedGame(t *testing.T) {
	x := finished(t, "three-days", "three-1")
	seq := forgeDie(t, x)
	r := Check(encode(t, x), "")
	if r.OK || r.Seq != seq || r.RecordKind != adjudicator.KindImpulse || r.What == "" || r.Head != "" {
		t.Fatalf("a die of record %d changed: %+v", seq, r)
	}
	if !strings.HasPrefix(r.Summary, fmt.Sprintf("NOT verified: game three-1: record %d (impulse ", seq)) {
		t.Errorf("summary %q", r.Summary)
	}
}

func TestCheckNotAnExport(t *testing.T) {
	x := finished(t, "three-days", "three-1")
	x.Format = "something/else"
	for name, data := range map[string][]byte{
		"empty":          nil,
		"not JSON":       []byte("<html>"),
		"another format": encode(t, x),
		"a field more":   []byte(`{"format":"titm-export/1","extra":1}`),
		// A game that is null: the verifier must answer, whatever it
		// finds in it.
		"a null game": []byte(`{"format":"titm-tournament/1","games":[null]}`),
	} {
		r := Check(data, "")
		if r.OK || r.Seq != -1 || !strings.HasPrefix(r.Summary, "NOT verified: ") || r.What == "" {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

// tourExport makes a Swiss tournament of four, paired, with the bids of
// its first round in and its sides decided: an export with no game yet.
func tourExport(t testing.TB) *tournament.Export {
	t.Helper()
	tr, err := playout.BidTournament()
	if err != nil {
		t.Fatal(err)
	}
	return tournament.MakeExport(tr, nil)
}

func TestCheckTournament(t *testing.T) {
	x := tourExport(t)
	r := Check(encode(t, x), "")
	if !r.OK || r.Kind != KindTournament || r.ID != "t-1" || r.Head != x.Head || r.Records != len(x.Records) || r.Seq != -1 {
		t.Fatalf("%+v", r)
	}
	if !strings.HasPrefix(r.Summary, "verified: tournament t-1: ") || r.Note == "" {
		t.Errorf("%+v", r)
	}
	// A record's hash no longer its content's: the verifier names it.
	x.Records[2].Time = x.Records[2].Time.Add(time.Second)
	r = Check(encode(t, x), "")
	if r.OK || r.Kind != KindTournament || r.Seq != 2 || r.RecordKind != x.Records[2].Kind || r.RecordKind == "" || r.Head != "" || !strings.HasPrefix(r.Summary, "NOT verified: tournament t-1: record 2: ") {
		t.Errorf("record 2 changed: %+v", r)
	}
	// Another format of tournament's export.
	x.Format = "titm-tournament/99"
	if r := Check(encode(t, x), ""); r.OK || r.Seq != -1 {
		t.Errorf("another format: %+v", r)
	}
}

// TestCheckInJapanese: the same verdicts in English and in Japanese. The
// language changes the words alone; the Japanese has no English word but
// the ids the export writes (the game's, a record's kind, a field's JSON
// name), and names the record that fails as the English does.
func TestCheckInJapanese(t *testing.T) {
	s, err := scenarios.Load("three-days")
	if err != nil {
		t.Fatal(err)
	}
	x := finished(t, "three-days", "three-1")
	game := encode(t, x)
	forged := finished(t, "three-days", "three-1")
	seq := forgeDie(t, forged)
	tx := tourExport(t)
	tour := encode(t, tx)
	tx.Records[2].Time = tx.Records[2].Time.Add(time.Second)
	badTour := encode(t, tx)
	withForged := tourExport(t)
	withForged.Games = append(withForged.Games, forged)
	other := strings.Repeat("ab", 32)
	for _, tt := range []struct {
		name   string
		data   []byte
		head   string
		ok     bool
		en, ja []string // what the English and the Japanese verdict say, among others
		ids    []string // the ids the Japanese may hold
	}{
		{"verified", game, "", true,
			[]string{"verified: game three-1: ", " impulses, ", " dice"},
			[]string{"検証済み: ゲーム three-1: インパルス", "回、ダイス"}, []string{"three-1"}},
		{"verified with a head", game, x.Records[5].Hash, true,
			[]string{"verified: game three-1: "}, []string{"検証済み: ゲーム three-1: "}, []string{"three-1"}},
		{"forged die", encode(t, forged), "", false,
			[]string{fmt.Sprintf("NOT verified: game three-1: record %d (impulse ", seq), "dice[0].roll (the dice) is ", "in the log, but the dice stream gives",
				fmt.Sprintf("The first record that fails is record %d (impulse): dice[0].roll", seq)},
			[]string{fmt.Sprintf("【検証失敗】: ゲーム three-1: レコード%d (impulse ", seq), "dice[0].roll がシードから出るダイスの目と異なります (ログでは ", "、再現では ",
				fmt.Sprintf("最初に一致しないのはレコード%d (impulse) です: dice[0].roll", seq)},
			[]string{"three-1", "impulse", "dice[0].roll"}},
		{"not an export", []byte("<html>"), "", false,
			[]string{"NOT verified: this is not an export of a game or a tournament: reading the export: invalid character"},
			[]string{"【検証失敗】: ゲームまたは大会のエクスポートではありません: エクスポートの JSON として読めません"}, nil},
		{"head not found", game, other, false,
			[]string{"NOT verified: game three-1: no record of the log has the hash " + other},
			[]string{"【検証失敗】: ゲーム three-1: ハッシュが " + other + " のレコードはログにありません"}, []string{"three-1"}},
		{"tournament", tour, "", true,
			[]string{"verified: tournament t-1: 6 records, 2 side decisions, ", "The tournament's seed is revealed"},
			[]string{"検証済み: 大会 t-1: 6レコード、陣営決定2回、", "大会のシードは大会終了時に公開されます"}, []string{"t-1"}},
		{"tournament forged", badTour, "", false,
			[]string{"NOT verified: tournament t-1: record 2: its hash ", "The first record that fails is record 2 (bid): its hash"},
			[]string{"【検証失敗】: 大会 t-1: レコード2: hash がレコードの内容のハッシュと異なります", "最初に一致しないのはレコード2 (bid) です: hash が"},
			[]string{"t-1", "bid", "hash"}},
		{"not a tournament's export", []byte(`{"format":"titm-tournament/1","extra":1}`), "", false,
			[]string{"NOT verified: reading the tournament's export: json: unknown field"},
			[]string{"【検証失敗】: 大会のエクスポートとして読めません"}, nil},
		{"a tournament's game empty", []byte(`{"format":"titm-tournament/1","games":[null]}`), "", false,
			[]string{"NOT verified: tournament : the export has an empty game"},
			[]string{"【検証失敗】: 大会 : 含まれるゲームのエクスポートが検証できません"}, nil},
		{"a tournament's game forged", encode(t, withForged), "", false,
			[]string{fmt.Sprintf("NOT verified: tournament t-1: game three-1: record %d (impulse ", seq), "dice[0].roll (the dice) is "},
			[]string{fmt.Sprintf("【検証失敗】: 大会 t-1: ゲーム three-1: レコード%d (impulse ", seq), "dice[0].roll がシードから出るダイスの目と異なります (ログでは "},
			[]string{"t-1", "three-1", "impulse", "dice[0].roll"}},
		{"tournament head not found", tour, other, false,
			[]string{"NOT verified: tournament t-1: no record of its log has the hash " + other},
			[]string{"【検証失敗】: 大会 t-1: ハッシュが " + other + " のレコードはログにありません"}, []string{"t-1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			en, ja := CheckIn(tt.data, tt.head, lang.English), CheckIn(tt.data, tt.head, lang.Japanese)
			if en.OK != tt.ok {
				t.Fatalf("%+v", en)
			}
			if en != Check(tt.data, tt.head) {
				t.Errorf("Check is not CheckIn in English:\n%+v\n%+v", en, Check(tt.data, tt.head))
			}
			if en.Lang != "en" || ja.Lang != "ja" {
				t.Errorf("languages %q, %q", en.Lang, ja.Lang)
			}
			// The verdict is the same; the words differ.
			if en.OK != ja.OK || en.Kind != ja.Kind || en.ID != ja.ID || en.Head != ja.Head || en.Records != ja.Records || en.Seq != ja.Seq || en.RecordKind != ja.RecordKind || en.HeadFound != ja.HeadFound {
				t.Errorf("the verdicts differ:\n%+v\n%+v", en, ja)
			}
			if (ja.Note == "") != (en.Note == "") || (ja.Failing == "") != (en.Failing == "") || (ja.What == "") != (en.What == "") {
				t.Errorf("the texts given differ:\n%+v\n%+v", en, ja)
			}
			for _, r := range []Result{en, ja} {
				word, _, _ := strings.Cut(r.Summary, ": ")
				if r.Summary != word+": "+r.Finding {
					t.Errorf("summary %q, finding %q", r.Summary, r.Finding)
				}
			}
			for _, r := range []struct {
				res  Result
				want []string
			}{{en, tt.en}, {ja, tt.ja}} {
				all := strings.Join([]string{r.res.Summary, r.res.Failing, r.res.Note}, "\n")
				for _, w := range r.want {
					if !strings.Contains(all, w) {
						t.Errorf("%s: no %q in\n%s", r.res.Lang, w, all)
					}
				}
			}
			for _, text := range []string{ja.Summary, ja.Finding, ja.Failing, ja.Note, ja.What} {
				if w := golden.EnglishWords(text, s, tt.ids...); len(w) > 0 {
					t.Errorf("English in the Japanese verdict: %q in %q", w, text)
				}
			}
		})
	}
}

// A call that gives no export's bytes is answered in the language asked.
func TestMisused(t *testing.T) {
	s, err := scenarios.Load("three-days")
	if err != nil {
		t.Fatal(err)
	}
	en, ja := Misused(lang.English), Misused(lang.Japanese)
	if en.OK || en.Seq != -1 || !strings.HasPrefix(en.Summary, "NOT verified: titmVerify takes") || en.What == "" {
		t.Errorf("%+v", en)
	}
	if ja.OK || ja.Lang != "ja" || !strings.HasPrefix(ja.Summary, "【検証失敗】: ") {
		t.Errorf("%+v", ja)
	}
	if w := golden.EnglishWords(ja.Summary+" "+ja.What, s, "titmVerify", "Uint8Array"); len(w) > 0 {
		t.Errorf("English in %q: %q", ja.Summary, w)
	}
}

// BenchmarkCheckCampaign is the verification of a whole campaign game, as
// the browser runs it (the budget there is 2 s), natively.
func BenchmarkCheckCampaign(b *testing.B) {
	x := finished(b, "campaign", "campaign-1")
	data := encode(b, x)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if r := Check(data, ""); !r.OK {
			b.Fatal(r.Summary)
		}
	}
}
