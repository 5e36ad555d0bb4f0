package referee_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/referee"
	"titm/internal/golden"
	"titm/rules"
	"titm/rules/scenarios"
	"titm/store"
)

// japanese reports whether a text is written in Japanese: it has kana or
// kanji.
var japanese = regexp.MustCompile(`[\p{Hiragana}\p{Katakana}\p{Han}]`)

// mixedGame makes an intro game whose German player reads Japanese, by his
// address's language in the referee's settings, and whose Allied player
// and observer read the referee's language, English; both have joined.
func mixedGame(t *testing.T, opt referee.Options) (*referee.Referee, *store.Store, string, map[rules.Side]string, *referee.Result) {
	t.Helper()
	opt.Address = "referee@example.org"
	opt.Languages = map[string]string{"hasso@example.org": "ja"}
	ref := referee.New(&opt)
	st, id, tokens := newGame(t, ref, "intro")
	return ref, st, id, tokens, begin(t, ref, st, id)
}

// inOrder reports whether each of want is in text, in that order, spaces
// and line breaks aside: a text wrapped to its columns breaks lines at
// spaces and between Japanese characters.
func inOrder(text string, want []string) bool {
	flat := func(s string) string { return strings.Join(strings.Fields(s), "") }
	text = flat(text)
	for _, w := range want {
		i := strings.Index(text, flat(w))
		if i < 0 {
			return false
		}
		text = text[i+len(flat(w)):]
	}
	return true
}

// mailTo returns the mail of a result to an address.
func mailTo(t *testing.T, res *referee.Result, to string) referee.Mail {
	t.Helper()
	for _, m := range res.Mails {
		if m.To[0] == to {
			return m
		}
	}
	t.Fatalf("no mail to %s among %s", to, recipients(res))
	return referee.Mail{}
}

// The same act tells each reader in his language: the Japanese player's
// mails are in Japanese, subject and all, the English player's and the
// observer's in English.
func TestEachReaderHisLanguage(t *testing.T) {
	ref, st, id, tokens, started := mixedGame(t, referee.Options{MaxExtensions: 2, MaxExtension: 48 * time.Hour, Reminder: 12 * time.Hour})
	mail := func(side rules.Side, text string, at time.Duration) func() *referee.Result {
		return func() *referee.Result {
			return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
				return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+text, start.Add(at))
			})
		}
	}
	const (
		ja, en       = "hasso@example.org", "troy@example.org"
		observer     = "umpire@example.org"
		standingJA   = "登録済みの常時命令"
		standingEN   = "Your standing orders on file"
		reminderSubj = "締切のお知らせ"
	)
	for _, c := range []struct {
		name string
		res  func() *referee.Result
		// in the Japanese player's mail, and in the English ones: the
		// subject and the text, each in this order
		ja, en []string
	}{
		{"the game begins", func() *referee.Result { return started },
			[]string{"[intro-1] ゲーム intro-1 (intro) を開始します", "両プレイヤーが参加しました", "シナリオ概要: 練習シナリオ「第7軍の攻撃」", "あなたの増援 (ドイツ軍)", standingJA},
			[]string{"[intro-1] Game intro-1 (intro) begins", "both players have joined", "Scenario brief: The 7th Army Attacks"}},
		{"an impulse played", mail(rules.German, "IMPULSE 16-1\nENTRENCH 276/986\n", time.Hour),
			[]string{"[intro-1] G16-1 実行、次は A16-1、締切 ", standingJA, "BLOW ALL"},
			[]string{"[intro-1] G16-1 played; A16-1 next, due by ", "Impulse G16-1"}},
		{"a player's extension", mail(rules.Allied, "EXTEND 24h", 2*time.Hour),
			[]string{"[intro-1] 連合軍プレイヤーがインパルス A16-1 の締切を 24h 延長しました", "新しい締切は", standingJA},
			[]string{"[intro-1] The Allied player extended impulse A16-1 by 24h", "it is now due by"}},
		{"a draw offered", mail(rules.Allied, "DRAW", 3*time.Hour),
			[]string{"連合軍プレイヤーが引き分けを提案しました", "DRAW ACCEPT で受諾できます"},
			[]string{"The Allied player offers a draw", "The German player accepts it with DRAW ACCEPT"}},
		{"the director pauses", func() *referee.Result {
			return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
				return ref.Pause(tx, id, "a question of the rules", start.Add(4*time.Hour))
			})
		},
			[]string{"[intro-1] 運営者がゲーム intro-1 を中断しました: a question of the rules", "運営者が再開するまで"},
			[]string{"[intro-1] The director has paused game intro-1: a question of the rules", "No impulse is played"}},
		{"the director resumes", func() *referee.Result {
			return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
				return ref.Resume(tx, id, "answered", start.Add(5*time.Hour))
			})
		},
			[]string{"運営者がゲーム intro-1 を再開しました: answered", "インパルス A16-1 の締切は"},
			[]string{"The director has resumed game intro-1: answered", "Impulse A16-1 is due by"}},
		{"a concession", mail(rules.Allied, "CONCEDE", 6*time.Hour),
			[]string{"連合軍プレイヤーが投了しました", "【ゲーム終了】ゲーム intro-1: ", "ゲームの秘密シードを公開します", "提出の速さ:", "ドイツ軍: インパルス1回"},
			[]string{"The Allied player concedes", "Game intro-1 is over: the Allied player conceded: German victory", "Promptness:", "German: 1 impulse"}},
	} {
		res := c.res()
		if len(res.Mails) != 3 {
			t.Fatalf("%s: mails %s", c.name, recipients(res))
		}
		check := func(to string, want []string, inJapanese bool) {
			m := mailTo(t, res, to)
			if !inOrder(m.Subject+"\n"+m.Text, want) {
				t.Errorf("%s: the mail to %s lacks one of %q, in that order:\n%s\n%s", c.name, to, want, m.Subject, m.Text)
			}
			if got := japanese.MatchString(m.Subject); got != inJapanese {
				t.Errorf("%s: the subject to %s is Japanese: %v: %q", c.name, to, got, m.Subject)
			}
			if !inJapanese && japanese.MatchString(m.Text) {
				t.Errorf("%s: the mail to %s has Japanese in it:\n%s", c.name, to, m.Text)
			}
		}
		check(ja, c.ja, true)
		check(en, c.en, false)
		check(observer, c.en, false)
		if en := mailTo(t, res, en); strings.Contains(en.Text, standingJA) || !strings.Contains(en.Text, standingEN) {
			t.Errorf("%s: the English player's standing orders:\n%s", c.name, en.Text)
		}
	}

	// The reminder goes to the player to move alone, in his language.
	st2Ref, st2, id2, _, _ := mixedGame(t, referee.Options{MaxExtensions: 2, MaxExtension: 48 * time.Hour, Reminder: 12 * time.Hour})
	res := act(t, st2, func(tx *store.Tx) (*referee.Result, error) { return st2Ref.Deadline(tx, id2, start.Add(40*time.Hour)) })
	m := mailTo(t, res, ja)
	if m.Kind != referee.KindReminder || !strings.HasPrefix(m.Subject, "[intro-1] "+reminderSubj+": インパルス G16-1 の締切は 2026-12-18 06:00 UTC") ||
		!strings.Contains(m.Text, "EXTEND 24h で締切の延長を申請できます(1ゲームにつき2回まで)") || !strings.Contains(m.Text, "あと 8h") {
		t.Errorf("the reminder: %q\n%s", m.Subject, m.Text)
	}
}

// A report's picture is kept once for each language its readers read: the
// Japanese player's is his own, drawn in Japanese; the English player and
// the observer share the English one, kept under the key it always had.
// A player who takes no picture causes none.
func TestPictureEachLanguage(t *testing.T) {
	ref, st, id, tokens, started := mixedGame(t, referee.Options{MapPicture: true})
	for _, res := range []*referee.Result{started, act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Orders(tx, id, rules.German, "GAME "+id+"\nTOKEN "+tokens[rules.German]+"\nIMPULSE 16-1\nENTRENCH 276/986\n", start.Add(time.Hour))
	})} {
		jaRef, enRef, obsRef := mailTo(t, res, "hasso@example.org").Map, mailTo(t, res, "troy@example.org").Map, mailTo(t, res, "umpire@example.org").Map
		if jaRef == nil || enRef == nil || obsRef == nil {
			t.Fatalf("a mail without its picture: %+v %+v %+v", jaRef, enRef, obsRef)
		}
		if *enRef != *obsRef || enRef.Language != "" || strings.HasSuffix(enRef.Snapshot, "/ja") {
			t.Errorf("the English readers' pictures: %+v, %+v", enRef, obsRef)
		}
		if jaRef.Language != lang.Japanese || jaRef.Snapshot != enRef.Snapshot+"/ja" || jaRef.Name != enRef.Name {
			t.Errorf("the Japanese picture %+v beside %+v", jaRef, enRef)
		}
		st.View(func(tx *store.Tx) error {
			for _, c := range []struct {
				ref   *referee.MapRef
				lang  string
				title string
			}{{jaRef, "ja", "ゲーム intro-1"}, {enRef, "", "Game intro-1"}} {
				snap, err := referee.ReadSnapshot(tx.Snapshot(c.ref.Snapshot))
				if err != nil {
					t.Fatal(err)
				}
				if snap.Language != c.lang || !strings.HasPrefix(snap.Title, c.title) {
					t.Errorf("snapshot %s: language %q, title %q", c.ref.Snapshot, snap.Language, snap.Title)
				}
			}
			return nil
		})
	}
	// With PICTURE OFF the Japanese player's language has no picture
	// kept: only the English one is.
	act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Orders(tx, id, rules.German, "GAME "+id+"\nTOKEN "+tokens[rules.German]+"\nPICTURE OFF\n", start.Add(2*time.Hour))
	})
	res := act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Deadline(tx, id, start.Add(60*time.Hour)) })
	if m := mailTo(t, res, "hasso@example.org"); m.Map != nil {
		t.Errorf("PICTURE OFF: a picture %+v", m.Map)
	}
	st.View(func(tx *store.Tx) error {
		key := mailTo(t, res, "troy@example.org").Map.Snapshot
		if tx.Snapshot(key+"/ja") != nil {
			t.Errorf("a Japanese picture %s/ja is kept that nobody reads", key)
		}
		return nil
	})
}

// LANGUAGE by mail is kept in the game, without a record in its log, and
// answered in the language chosen, as is every mail after it; an unknown
// code is refused with the choices; a mail refused for its orders changes
// no language and is answered in the old one. The referee-wide default,
// a player's address's and the director's choice are taken in that order
// of weight, the director's first.
func TestLanguageRequest(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, id, tokens := newGame(t, ref, "intro")
	begin(t, ref, st, id)
	mail := func(side rules.Side, text string) *referee.Result {
		return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+text, start.Add(time.Hour))
		})
	}
	stored := func() (code string, records int) {
		st.View(func(tx *store.Tx) error {
			g, err := tx.Game(id)
			if err != nil {
				t.Fatal(err)
			}
			code, records = g.Players[rules.Allied].Language, g.Log
			return nil
		})
		return code, records
	}
	_, before := stored()
	for _, c := range []struct {
		name, mail string
		refused    bool
		code       string   // kept after the mail
		want       []string // in the reply, in this order
	}{
		{"LANGUAGE ja", "LANGUAGE ja", false, "ja",
			[]string{"ゲーム intro-1 では、変更するまで LANGUAGE ja を保持します: あなたへのメールは日本語で書かれます。", "LANGUAGE en (English)", "LANGUAGE ja (日本語)", "登録済みの常時命令:\n  BLOW ALL"}},
		{"a request after it", "STATUS", false, "ja", []string{"ゲーム intro-1 (intro): 進行中。", "ドイツ軍VP: 0。", "局面:", "登録済みの常時命令"}},
		{"an unknown code", "LANGUAGE fr", true, "ja", []string{`LANGUAGE には言語のコードを書いてください("fr" ではありません): LANGUAGE en (English)`, "このメールの内容は何も適用されていません。"}},
		{"orders refused with it", "LANGUAGE en\nMOVE nobody 1 2", true, "ja", []string{"命令に", "件のエラーがあります", "このメールの内容は何も適用されていません。"}},
		{"back to English, answered in English", "UNITS\nLANGUAGE english", false, "en",
			[]string{"Your units in game intro-1, impulse G16-1:", "LANGUAGE en is kept for game intro-1, until you change it: your mails are written in English.", "The languages: LANGUAGE en (English) or LANGUAGE ja (日本語).", "Your standing orders on file"}},
		{"the code missing", "LANGUAGE", true, "en", []string{"the language is missing: LANGUAGE en (English) or LANGUAGE ja (日本語)"}},
		// The whole answer is in the language the mail leaves, the
		// request before LANGUAGE too.
		{"a request before it", "STATUS\nLANGUAGE 日本語", false, "ja", []string{"ゲーム intro-1 (intro): 進行中。", "LANGUAGE ja を保持します", "登録済みの常時命令"}},
	} {
		res := mail(rules.Allied, c.mail)
		if !inOrder(res.Reply, c.want) {
			t.Errorf("%s: the reply lacks one of %q, in that order:\n%s", c.name, c.want, res.Reply)
		}
		code, records := stored()
		if res.Refused != c.refused || code != c.code || records != before || len(res.Records) != 0 {
			t.Errorf("%s: refused %v, language %q, %d records in the log (%d before); want %v, %q", c.name, res.Refused, code, records, before, c.refused, c.code)
		}
	}
	// HELP lists LANGUAGE among the requests.
	if help := mail(rules.German, "HELP").Reply; !strings.Contains(help, "LANGUAGE en | LANGUAGE ja") {
		t.Errorf("HELP does not list LANGUAGE:\n%s", help)
	}
	if o, err := referee.ParseOrders("language JA", nil, ""); err != nil || o.List[0] != (referee.LanguageRequest{Code: "ja"}) {
		t.Errorf("language JA: %v %v", o, err)
	}

	// Where a game's player's language comes from.
	for _, c := range []struct {
		name      string
		opt       referee.Options
		languages map[rules.Side]string
		german    string // the German player's language kept in the game
		welcome   string // in his welcome's subject
	}{
		{"none: the referee's", referee.Options{}, nil, "", "welcome: you play the German side"},
		{"the referee's default", referee.Options{Language: "ja"}, nil, "", "案内: あなたはドイツ軍を担当します"},
		{"his address's", referee.Options{Languages: map[string]string{"hasso@example.org": "ja"}}, nil, "ja", "案内"},
		{"the director's over his address's", referee.Options{Languages: map[string]string{"hasso@example.org": "ja"}}, map[rules.Side]string{rules.German: "en"}, "en", "welcome"},
		{"the director's over the referee's", referee.Options{Language: "en"}, map[rules.Side]string{rules.German: "Japanese"}, "ja", "案内"},
	} {
		r := referee.New(&c.opt)
		st, err := store.Open(filepath.Join(t.TempDir(), "titm.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		var created *referee.Created
		err = st.Update(func(tx *store.Tx) error {
			created, err = r.New(tx, referee.NewGame{Scenario: "intro", German: "Hasso@Example.org", Allied: "troy@example.org", Languages: c.languages, Deadline: time.Hour}, start)
			return err
		})
		st.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := created.Game.Players[rules.German].Language; got != c.german || created.Game.Players[rules.Allied].Language != "" {
			t.Errorf("%s: the German player's language %q, want %q", c.name, got, c.german)
		}
		if s := created.Mails[0].Subject; !strings.Contains(s, c.welcome) {
			t.Errorf("%s: the welcome %q", c.name, s)
		}
	}
}

// The brief of the introductory scenario in Japanese, as the German player
// who reads Japanese receives it when the game begins: the rulebook's
// words, in 78 columns of display width.
func TestBriefJapanese(t *testing.T) {
	_, _, _, _, started := mixedGame(t, referee.Options{})
	m := mailTo(t, started, "hasso@example.org")
	_, brief, ok := strings.Cut(m.Text, "シナリオ概要: ")
	if !ok {
		t.Fatalf("no brief:\n%s", m.Text)
	}
	brief = "シナリオ概要: " + brief
	golden.Check(t, filepath.Join("testdata", "brief-intro-german-ja.txt"), brief)
	for _, l := range strings.Split(m.Text, "\n") {
		if lang.Width(l) > 78 {
			t.Errorf("a line of %d columns: %s", lang.Width(l), l)
		}
	}
	// The English player's, the same act, is the English golden's.
	if en := mailTo(t, started, "troy@example.org"); japanese.MatchString(en.Text) && !strings.Contains(en.Text, "日本語") {
		t.Errorf("the English player's brief has Japanese in it:\n%s", en.Text)
	}
}

// A whole game in Japanese: every reply and mail the Japanese player reads
// is in Japanese and keeps to 78 columns of display width, but for lines
// that must stay whole (a quoted order line, a hash).
func TestJapaneseGameWraps(t *testing.T) {
	texts, _ := scriptedGameIn(t, "ja")
	for _, x := range texts {
		if !strings.Contains(x.step, "hasso@example.org") && !strings.HasSuffix(x.step, "(German): the reply") {
			continue
		}
		if !japanese.MatchString(x.body) {
			t.Errorf("%s is not in Japanese:\n%s", x.step, x.body)
		}
		if !strings.Contains(x.step, "subject") {
			checkWidth(t, x)
		}
	}
}

// TestJapaneseGameWithoutEnglish is the test of done: a Japanese
// player plays a whole game by mail without reading a word of English but
// the order language, place names, unit ids and the program's own
// commands (golden.EnglishWords). What the game's people wrote themselves
// (the seeds, a wrong unit's id, the director's reasons) is shown as
// written.
func TestJapaneseGameWithoutEnglish(t *testing.T) {
	texts, _ := scriptedGameIn(t, "ja")
	s, err := scenarios.Load("intro")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, x := range texts {
		if !strings.Contains(x.step, "hasso@example.org") && !strings.HasSuffix(x.step, "(German): the reply") {
			continue
		}
		checked++
		// The welcome's line in English, which says how to have the
		// mails in English, is English on purpose.
		if ws := golden.EnglishWords(x.body, s, "intro-1", "(intro)", `"ein Samenkorn"`, `"two"`, "nosuch",
			"a question of the rules", "the question is answered", "the answer took long", referee.LanguageLine(lang.English, false)); len(ws) > 0 {
			t.Errorf("%s: English words %q in\n%s", x.step, ws, x.body)
		}
	}
	if checked < 40 {
		t.Errorf("only %d texts to the Japanese player", checked)
	}
}

// scriptedGameIn plays the scripted game of scriptedGame with the German
// player reading the language code, and returns every text it made, each
// step named with the side that acted.
func scriptedGameIn(t *testing.T, code string) (transcript, []adjudicator.Record) {
	t.Helper()
	ref := referee.New(&referee.Options{Address: "referee@example.org", MaxExtensions: 1, MaxExtension: 48 * time.Hour, Reminder: 12 * time.Hour,
		Languages: map[string]string{"hasso@example.org": code}})
	st, id, tokens, created := scriptedStart(t, ref)
	var texts transcript
	texts.add("new", created)
	at := start
	for _, s := range []struct {
		side  rules.Side // "" for the director or the clock
		after time.Duration
		mail  string
		fn    func(tx *store.Tx) (*referee.Result, error)
	}{
		{rules.German, time.Minute, "STATUS", nil},
		{rules.German, time.Minute, "DICE", nil},
		{rules.German, time.Minute, "JOIN SEED ein Samenkorn", nil},
		{rules.German, time.Minute, "JOIN SEED again", nil},
		{rules.Allied, time.Minute, "JOIN SEED two", nil},
		{rules.German, time.Minute, "HELP", nil},
		{rules.German, time.Minute, "BRIEF", nil},
		{rules.German, time.Minute, "こんにちは\nIMPULSE 16-1\nMOVE 212/423 99\nENTRENCH nosuch\nATACK 24\n", nil},
		{rules.German, time.Minute, "DRAW ACCEPT", nil},
		{rules.German, time.Minute, "EXTEND 24h", nil},
		{rules.German, time.Minute, "EXTEND 24h", nil},
		{rules.German, time.Minute, "UNITS", nil},
		{rules.German, time.Minute, "ORDERS", nil},
		{rules.German, time.Minute, "CHECK\nIMPULSE 16-1\nMOVE 352/914 23 24\nENTRENCH 276/986", nil},
		{rules.German, time.Minute, "CHECK\nCONCEDE", nil},
		{rules.German, time.Minute, "IMPULSE 16-1\nENTRENCH 212/423\nDEFEND PREFER ARMOR\n\nよろしく", nil},
		{rules.German, time.Minute, "IMPULSE 16-2", nil},
		{rules.German, time.Minute, "ORDERS", nil},
		{"", 60 * time.Hour, "", func(tx *store.Tx) (*referee.Result, error) { return ref.Deadline(tx, id, at) }},
		{"", 37 * time.Hour, "", func(tx *store.Tx) (*referee.Result, error) { return ref.Deadline(tx, id, at) }},
		{"", time.Minute, "", func(tx *store.Tx) (*referee.Result, error) { return ref.Pause(tx, id, "a question of the rules", at) }},
		{rules.German, time.Minute, "STATUS", nil},
		{"", time.Minute, "", func(tx *store.Tx) (*referee.Result, error) {
			return ref.Extend(tx, id, 24*time.Hour, "the answer took long", at)
		}},
		{"", time.Minute, "", func(tx *store.Tx) (*referee.Result, error) { return ref.Resume(tx, id, "the question is answered", at) }},
		{rules.German, time.Minute, "DRAW", nil},
		{rules.Allied, time.Minute, "CONCEDE", nil},
		{rules.German, time.Minute, "STATUS", nil},
		{rules.German, time.Minute, "DICE", nil},
	} {
		at = at.Add(s.after)
		fn := s.fn
		step := "the clock or the director"
		if fn == nil {
			side, body := s.side, s.mail
			fn = func(tx *store.Tx) (*referee.Result, error) {
				return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+body, at)
			}
			step = strings.ReplaceAll(s.mail, "\n", " / ") + " (" + s.side.Title() + ")"
		}
		texts.add(step, act(t, st, fn))
	}
	var log []adjudicator.Record
	if err := st.View(func(tx *store.Tx) (err error) { log, err = tx.Log(id); return err }); err != nil {
		t.Fatal(err)
	}
	return texts, log
}

// A tournament's player whose file chose Japanese reads its mails in
// Japanese: the welcome, his pairing, the game's own welcome and the
// standings; the others, and the director, in English; each text made
// once for each language.
func TestTournamentLanguages(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	file := strings.Replace(tournamentFile("round-robin", "alternate", 2, ""), "address = \"p1@example.org\"\n", "address = \"p1@example.org\"\nlanguage = \"ja\"\n", 1)
	st, res := newTournament(t, ref, file)
	for _, m := range res.Mails {
		ja := m.To[0] == "p1@example.org"
		if japanese.MatchString(m.Subject) != ja || (!ja && japanese.MatchString(ownLanguage(m.Text))) {
			t.Errorf("the mail to %s: %q\n%s", m.To[0], m.Subject, m.Text)
		}
		if ja && !japanese.MatchString(m.Text) {
			t.Errorf("the mail to %s is not in Japanese: %q\n%s", m.To[0], m.Subject, m.Text)
		}
		for _, l := range strings.Split(m.Text, "\n") {
			if lang.Width(l) > 78 && ja {
				t.Errorf("the mail to %s: a line of %d columns: %s", m.To[0], lang.Width(l), l)
			}
		}
	}
	p1 := mailTo(t, res, "p1@example.org")
	if !inOrder(p1.Subject+"\n"+p1.Text, []string{"[", "Test Cup へようこそ", "Tigers in the Mist の大会 Test Cup", "方式: 総当たり、1ラウンド、参加者2人。", "あなたの大会用の秘密のトークン:"}) {
		t.Errorf("the Japanese welcome: %q\n%s", p1.Subject, p1.Text)
	}
	// The game's end tells the standings, each in his language.
	game := current(t, st, res.Tournament.ID).Rounds[0].Pairings[0].Game
	joinGame(t, st, ref, game, start)
	end := finish(t, st, ref, game, "draw", start.Add(time.Hour))
	var standings int
	for _, m := range end.Mails {
		if m.Kind != referee.KindTournament {
			continue
		}
		standings++
		if ja := m.To[0] == "p1@example.org"; ja != strings.Contains(m.Subject, "順位表") || ja == strings.Contains(m.Text, "Standings of Test Cup") {
			t.Errorf("the standings to %s: %q\n%s", m.To[0], m.Subject, m.Text)
		}
	}
	if standings != 3 {
		t.Errorf("%d standings mails: want the 2 players' and the director's", standings)
	}
}

// A player who takes another's place in a tournament reads his mails in
// his own language, not in the one the tournament's file chose for the
// player he replaces: his welcome, his game's, and the standings at the
// game's end; his address's language when the referee's settings give
// one.
func TestTournamentReplaceLanguage(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour,
		Languages: map[string]string{"kenji@example.org": "ja"}})
	file := strings.Replace(tournamentFile("round-robin", "alternate", 3, ""), "address = \"p1@example.org\"\n", "address = \"p1@example.org\"\nlanguage = \"ja\"\n", 1)
	st, res := newTournament(t, ref, file)
	id := res.Tournament.ID
	replace := func(who, addr string) *referee.Result {
		t.Helper()
		var out *referee.Result
		if err := st.Update(func(tx *store.Tx) (err error) {
			out, err = ref.TournamentReplace(tx, id, who, "", addr, "ill", start)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct {
		who, addr string
		ja        bool
	}{
		{"P1", "nina@example.org", false}, // the file chose Japanese for P1
		{"P2", "kenji@example.org", true}, // the referee's settings, for his address
	} {
		welcome := mailTo(t, replace(c.who, c.addr), c.addr)
		if japanese.MatchString(welcome.Subject+ownLanguage(welcome.Text)) != c.ja {
			t.Errorf("%s taking %s's place is welcomed in the wrong language: %q\n%s", c.addr, c.who, welcome.Subject, welcome.Text)
		}
	}
	tr := current(t, st, id)
	seen := map[string]int{} // the mails to each replacing player checked
	for _, round := range tr.Rounds {
		for _, p := range round.Pairings {
			if p.Game == "" {
				continue
			}
			joinGame(t, st, ref, p.Game, start)
			for _, m := range finish(t, st, ref, p.Game, "draw", start.Add(time.Hour)).Mails {
				seen[m.To[0]]++
				if m.To[0] == "nina@example.org" && japanese.MatchString(m.Subject+ownLanguage(m.Text)) {
					t.Errorf("the replacing player reads his predecessor's language: %q\n%s", m.Subject, m.Text)
				}
				if m.To[0] == "kenji@example.org" && !japanese.MatchString(m.Subject+ownLanguage(m.Text)) {
					t.Errorf("the player whose address reads Japanese: %q\n%s", m.Subject, m.Text)
				}
			}
		}
	}
	for _, addr := range []string{"nina@example.org", "kenji@example.org"} {
		if seen[addr] == 0 {
			t.Errorf("no mail to %s at the end of the round's games: nothing of his language checked", addr)
		}
	}
}

// The game's refusals read in the player's language: orders out of turn
// as a sentence of their own, an act refused as a clause after its
// keyword, each naming the impulse, side or game as the English does.
func TestRefusalsByLanguage(t *testing.T) {
	ref, st, id, tokens, _ := mixedGame(t, referee.Options{Deadline: 48 * time.Hour})
	send := func(side rules.Side, body string, at time.Time) string {
		t.Helper()
		res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+body, at)
		})
		return res.Reply
	}
	at := start.Add(time.Hour)
	for _, c := range []struct {
		side rules.Side
		body string
		want string
	}{
		{rules.Allied, "IMPULSE 16-1\n", "It is not your impulse: it is the German impulse G16-1, due by"},
		{rules.Allied, "JOIN SEED again\n", "JOIN: game " + id + " is playing: joining is over."},
		{rules.Allied, "DRAW ACCEPT\n", "the German player has not offered a draw since the last impulse"},
		{rules.German, "JOIN SEED again\n", "JOIN: ゲーム " + id + " は進行中です: 参加の受付は終わっています。"},
		{rules.German, "IMPULSE 16-1\n", ""}, // played, a pass: its report goes by mail
		{rules.German, "IMPULSE 16-2\n", "あなたのインパルスではありません: 現在は連合軍インパルス A16-1 です"},
	} {
		if got := send(c.side, c.body, at); !inOrder(got, []string{c.want}) {
			t.Errorf("%s %q: the reply lacks %q:\n%s", c.side, c.body, c.want, got)
		}
		at = at.Add(time.Minute)
	}
}

// ownLanguage is a text without its whitespace and without the lines of a
// welcome that are in another language on purpose (referee.LanguageLine),
// to tell the language it is written in.
func ownLanguage(text string) string {
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	text = squeeze(text)
	for _, code := range lang.Codes {
		for _, tournament := range []bool{false, true} {
			text = strings.ReplaceAll(text, squeeze(referee.LanguageLine(code, tournament)), "")
		}
	}
	return text
}

// Every welcome, a game's or a tournament's, ends with how to have the
// mails in the other language, in that language: a player who cannot read
// the welcome reads how to change it. The rest of it is in its own
// language.
func TestWelcomeOtherLanguage(t *testing.T) {
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	for _, c := range []struct {
		code, other string
		tournament  bool
	}{
		{lang.English, lang.Japanese, false},
		{lang.Japanese, lang.English, false},
		{lang.English, lang.Japanese, true},
		{lang.Japanese, lang.English, true},
	} {
		ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour, Language: c.code})
		var welcome referee.Mail
		if c.tournament {
			_, res := newTournament(t, ref, tournamentFile("round-robin", "alternate", 2, ""))
			welcome = mailTo(t, res, "p1@example.org")
		} else {
			_, _, _, created := scriptedStart(t, ref)
			welcome = created.Mails[0]
		}
		line := referee.LanguageLine(c.other, c.tournament)
		if n := strings.Count(squeeze(welcome.Text), squeeze(line)); n != 1 {
			t.Errorf("%s welcome (tournament %v): the line %q is there %d times:\n%s", c.code, c.tournament, line, n, welcome.Text)
		}
		if !strings.Contains(line, "LANGUAGE "+c.other) {
			t.Errorf("the line in %s does not name LANGUAGE %s: %q", c.other, c.other, line)
		}
		if ja := japanese.MatchString(ownLanguage(welcome.Text)); ja != (c.code == lang.Japanese) {
			t.Errorf("%s welcome (tournament %v) is in Japanese: %v, beside its line in %s:\n%s", c.code, c.tournament, ja, c.other, welcome.Text)
		}
		if japanese.MatchString(line) != (c.other == lang.Japanese) {
			t.Errorf("the line for %s is not in it: %q", c.other, line)
		}
	}
}
