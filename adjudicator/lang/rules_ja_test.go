package lang_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"titm/adjudicator/lang"
	"titm/rules"
	"titm/rules/scenarios"
)

// TestRefusalsInJapanese: orders of the 7th Army Attacks that the parser or
// the rules refuse, as a Japanese player reads them: the whole text in the
// rulebook's words, the order as written and the unit ids, areas and
// keywords as they are, and the same rule numbers as the English.
func TestRefusalsInJapanese(t *testing.T) {
	s, err := scenarios.Load("intro")
	if err != nil {
		t.Fatal(err)
	}
	ja := lang.For(lang.Japanese)
	for _, c := range []struct {
		name string
		side rules.Side
		line string // the order, after IMPULSE 16-1 on line 1
		want string
	}{
		{"8.34 blown bridge", rules.German, "MOVE 7APzJg 18 10 11",
			`2行目: "MOVE 7APzJg 18 10 11": 橋梁 10-11 は爆破されています: 装甲ユニットは渡れません (8.34)`},
		{"8.38 MP", rules.German, "MOVE 352/915 24 19 20 16",
			`2行目: "MOVE 352/915 24 19 20 16": Beaufort (20) への進入には4MPが必要ですが、352/915 の残りは2MPです (8.38)`},
		{"8.25 9.11 9.14 attack", rules.German, "ATTACK 20",
			`2行目: "ATTACK 20": Beaufort (20) にいるあなたのユニットはどれも攻撃できません: このターンに既に移動したか、攻撃したか、戦闘のあったエリアで攻撃せずに留まりました (8.25, 9.11, 9.14)`},
		{"10.12 repair", rules.German, "REPAIR 10-11 BY 605E",
			`2行目: "REPAIR 10-11 BY 605E": 605E は橋梁 10-11 のどちらの端にもいません (10.12)`},
		{"8.54 armour", rules.German, "ENTRENCH 7APzJg",
			`2行目: "ENTRENCH 7APzJg": 7APzJg は装甲ユニットのため、塹壕を構築できません (8.54)`},
		{"10.11 type", rules.German, "REPAIR 10-11 BY 352/915",
			`2行目: "REPAIR 10-11 BY 352/915": 352/915 は歩兵ユニットです: 架橋を行えるのは工兵ユニットだけです (10.11)`},
		{"9.17 zone", rules.German, "ATTACK C",
			`2行目: "ATTACK C": ATTACK エリア: ゾーンC はエリアではありません。ゾーンでは戦闘は発生しません (9.17)`},
		{"4.11 did you mean", rules.German, "DEFEND PREFER INFANTRI",
			`2行目: "DEFEND PREFER INFANTRI": INFANTRI はユニットの種類ではありません: ARMOR, ENGINEER, MECH, MOT, INFANTRY (4.11)。INFANTRY のことですか？`},
		{"side", rules.German, "MOVE 4/12 1 2",
			`2行目: "MOVE 4/12 1 2": 4/12 は連合軍のユニットです: あなたが指揮するのはドイツ軍のユニットです`},
		{"map", rules.German, "MOVE 276/986 21 22 23 24 25",
			`2行目: "MOVE 276/986 21 22 23 24 25": Waxweiler (25) は練習シナリオ「第7軍の攻撃」の使用するマップ範囲外です`},
		{"14.12 special forces", rules.Allied, "SF 3 DELAY",
			`2行目: "SF 3 DELAY": 特殊部隊はドイツ軍のもので、ドイツ軍インパルスに配置します (14.12)`},
		{"bridges there", rules.German, "BLOW 10-12",
			`2行目: "BLOW 10-12": Irrel (10) と Consdorf (12) を結ぶ道路はないので、橋梁 10-12 はありません。そこにある橋梁: 10-11`},
	} {
		t.Run(c.name, func(t *testing.T) {
			es := refusals(t, s, c.side, "IMPULSE 16-1\n"+c.line+"\n")
			if len(es) == 0 {
				t.Fatalf("%q is not refused", c.line)
			}
			got := ja.Error(es[0])
			if got != c.want {
				t.Errorf("in Japanese:\n got %s\nwant %s", got, c.want)
			}
			if en, want := lang.EN().Error(es[0]), es[0].Error(); en != want {
				t.Errorf("in English:\n got %s\nwant %s", en, want)
			}
			if en, ja := lang.RuleRefs.FindAllString(es[0].Error(), -1), lang.RuleRefs.FindAllString(got, -1); !slices.Equal(en, ja) {
				t.Errorf("the Japanese cites %v, the English %v", ja, en)
			}
		})
	}
}

// Every reason a unit is spent for the turn has its own text, which a
// Japanese CHECK reads in Japanese, citing the same rules.
func TestSpentInJapanese(t *testing.T) {
	ja := lang.For(lang.Japanese)
	for _, why := range []string{rules.SpentEntrenches, rules.SpentMovesDigs, rules.SpentMoves, rules.SpentAttacks, rules.SpentStays, rules.SpentRepairs} {
		m := rules.Spent{Unit: "116/60", Why: why}.Text()
		if m.Key == "%s %s" {
			t.Errorf("%q has no text of its own", why)
		}
		got := ja.Text(m)
		if strings.Contains(got, why) || !slices.Equal(lang.RuleRefs.FindAllString(got, -1), lang.RuleRefs.FindAllString(why, -1)) {
			t.Errorf("%q in Japanese: %q", why, got)
		}
	}
}

// refusals returns what the parser or, if it accepts them, the rules
// refuse of orders at the scenario's start.
func refusals(t *testing.T, s *rules.Scenario, side rules.Side, body string) rules.OrderErrors {
	t.Helper()
	var es rules.OrderErrors
	o, err := rules.ParseOrders(body, s, &rules.ParseOptions{Side: side})
	if err == nil {
		err = rules.CheckOrders(s, rules.NewState(s), o)
	}
	if err != nil && !errors.As(err, &es) {
		t.Fatal(err)
	}
	return es
}

// TestRulesTextsInJapanese: the pieces the rules make for the report and
// for the targeting refusals: modifiers, events, a 9.55 refusal.
func TestRulesTextsInJapanese(t *testing.T) {
	ja := lang.For(lang.Japanese)
	fs := []rules.Combatant{{ID: "A", Type: rules.Armor, Strength: 4}, {ID: "M", Type: rules.Mech, Strength: 3}, {ID: "I1", Type: rules.Infantry, Strength: 3}, {ID: "I2", Type: rules.Infantry, Strength: 3}}
	ts := []rules.Combatant{{ID: "E", Type: rules.Engineer, Strength: 3}, {ID: "T", Type: rules.Mot, Strength: 2}, {ID: "R", Type: rules.Armor, Strength: 4}}
	var fire []rules.FirePair
	for _, p := range strings.Fields("A>R M>T I1>T I2>T") {
		u, tg, _ := strings.Cut(p, ">")
		fire = append(fire, rules.FirePair{Unit: u, Target: tg})
	}
	err := rules.CheckFire(fs, ts, false, fire)
	if err == nil {
		t.Fatal("CheckFire accepts three firing units at T")
	}
	for _, c := range []struct {
		m        rules.Message
		en, want string
	}{
		{rules.Modifier{Value: 1, Why: "target entrenched", Rules: []string{"8.56", "9.71"}}.Text(),
			"+1 target entrenched (8.56, 9.71)", "+1 目標が塹壕内 (8.56, 9.71)"},
		{rules.Modifier{Value: -1, Why: "attackers crossed a river", Rules: []string{"9.71"}}.Text(),
			"-1 attackers crossed a river (9.71)", "-1 攻撃側が渡河 (9.71)"},
		{rules.Moved{Units: []string{"605E"}, Path: []rules.Place{rules.AreaPlace(19), rules.AreaPlace(20)}, MP: 4, Foot: true}.Text(),
			"605E moves on foot 19-20 (4 MP)", "605E は歩兵として 19-20 を移動 (4MP)"},
		{rules.ArtilleryCall{Side: rules.German, N: 1, Of: 2, Roll: 5, Need: 4}.Text(),
			"German artillery call 1 of 2: rolls 5, needs 4 or less: fails (9.43-9.45)", "ドイツ軍の砲撃要請 2回中1回目: 出た目 5、4以下で成功: 失敗 (9.43-9.45)"},
		{rules.MessageOf(err), err.Error(),
			"T には射撃ユニット3つ、E には射撃ユニットなし: すべての目標に射撃ユニットが1つ割り当てられるまで、2つ目の射撃ユニットを割り当てられる目標はありません (9.55)"},
		{rules.VPTotal{Turn: 18, VP: 3, Total: 6}.Text(),
			"victory phase of 18 December: the Germans score 3 VP, 6 VP in all (6.0 IX, 12.11)", "12月18日ターンの勝利条件判定フェイズ: ドイツ軍は3VPを獲得、VPトータル6 (6.0 IX, 12.11)"},
		{rules.StackRemoved{Unit: "G/IN", Area: 4, Why: rules.RemovedByPolicy}.Text(),
			"G/IN is removed from 4: over the stacking limit (7.2, by policy B6)", "G/IN をエリア 4 から除去: スタック制限超過 (7.2、B6 の既定の方針による)"},
		{rules.GameResult{Result: "Allied decisive victory", Kind: rules.VictoryVP, VP: 0}.Text(),
			"the scenario is over: Allied decisive victory with 0 German VP (12.0)", "シナリオ終了: 連合軍決定的勝利、ドイツ軍VP 0 (12.0)"},
		{rules.Spent{Unit: "116/60", Why: rules.SpentMovesDigs}.Text(), "116/60 moves and entrenches (8.25, 8.52)", "116/60 は移動して塹壕を構築 (8.25, 8.52)"},
	} {
		if got := c.m.String(); got != c.en {
			t.Errorf("%q: English %q, want %q", c.m.Key, got, c.en)
		}
		if got := ja.Text(c.m); got != c.want {
			t.Errorf("%q: Japanese\n got %s\nwant %s", c.m.Key, got, c.want)
		}
	}
}
