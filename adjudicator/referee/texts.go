package referee

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// The texts of the mails. They are plain text that reads in 78 columns,
// in the reader's language: each is written with his printer (lang.For),
// its key the English text.

// width is the columns a line of a reply or a notice keeps to.
const width = 78

// lineQuotes matches the head of a line that quotes a line of the player's
// orders, in an answer that lists their errors, in every language ("line
// 3: ", "3行目: "): such a line stays whole. It is made from the printers'
// own way of quoting a line (lang.Printer.Error), so that it follows the
// catalogs.
var lineQuotes = sync.OnceValue(func() *regexp.Regexp {
	var alts []string
	for _, code := range lang.Codes {
		q := lang.For(code).Error(rules.OrderError{Line: 1, Msg: "\x00"})
		head, _, _ := strings.Cut(q, "\x00")
		alts = append(alts, strings.Replace(regexp.QuoteMeta(head), "1", `\d+`, 1))
	}
	return regexp.MustCompile(`^(?:` + strings.Join(alts, "|") + `)`)
})

// wrap breaks the prose of a text, its lines that start in the first
// column, into lines of width columns (lang.Wrap: at spaces, and between
// Japanese characters). Indented lines are quoted material (orders, seeds,
// hashes, the rows of a table) and stay whole, as do lines quoting an
// order and words longer than a line.
func wrap(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, " ") && !lineQuotes().MatchString(l) {
			lines[i] = wrapLine(l, "", "")
		}
	}
	return strings.Join(lines, "\n")
}

// wrapLine breaks s into lines of width columns at most, the first begun
// with first and the others with rest: a list item keeps its indentation.
// A Japanese character takes two columns (lang.Width).
func wrapLine(s, first, rest string) string {
	return strings.Join(lang.Wrap(s, first, rest, width), "\n")
}

// startText is the first report: the game begins, and the dice are fixed.
func startText(p *lang.Printer, g *adjudicator.Game) string {
	return p.Sprintf("Game %s (%s) begins: both players have joined.\n\n"+
		"The dice are fixed from now on (B10). They come from the game's secret seed,\n"+
		"committed to before you joined:\n  commitment %s\nand from both players' seeds:\n  German %q\n  Allied %q\n"+
		"The secret seed is revealed when the game ends; then anyone can check every\ndie (titm verify).\n\n"+
		"The German player moves first: impulse %s, due by %s.\nLog head: %s\n",
		g.ID, g.Scenario, g.Commitment, g.Players[rules.German].Seed, g.Players[rules.Allied].Seed, g.Next.String(), adjudicator.FormatTime(g.Due), g.Head)
}

// endText is the end of a game: the result, the revealed seed and each
// player's promptness.
func endText(p *lang.Printer, g *adjudicator.Game) string {
	var b strings.Builder
	b.WriteString(p.Sprintf("Game %s is over: %s.\n\n", g.ID, resultText(p, g.Result)))
	b.WriteString(p.Sprintf("The game's secret seed is revealed:\n  %s\nIts SHA-256 is the commitment published when the game was made:\n  %s\n", g.Seed, g.Commitment))
	b.WriteString(p.Sprintf("With the log (titm export) anyone can now recompute every die and replay\nevery impulse (titm verify).\n\n"))
	b.WriteString(promptnessText(p, g))
	b.WriteString(p.Sprintf("\nLog head: %s\n", g.Head))
	return b.String()
}

// resultText is a game's result, as the log keeps it in English, in the
// language of p: the referee's own results (a concession, a forfeit, a
// draw) and the scenarios' (adjudicator.ResultMessage).
func resultText(p *lang.Printer, result string) string {
	return p.Text(rules.ResultMessage(result))
}

// promptnessText is each player's promptness, as the final report gives
// it for tournaments.
func promptnessText(p *lang.Printer, g *adjudicator.Game) string {
	var b strings.Builder
	b.WriteString(p.Sprintf("Promptness:\n"))
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		fmt.Fprintf(&b, "  %s: %s\n", p.Side(side), promptness(p, g.Players[side]))
	}
	return b.String()
}

// promptness tells how a player keeps the game's pace, as
// adjudicator.Player.Promptness does in English: impulses played, the
// average time taken, deadlines missed and extensions asked for.
func promptness(p *lang.Printer, pl *adjudicator.Player) string {
	played, ext := rules.M("%d impulses", pl.Impulses), rules.M("%d extensions", pl.Extensions)
	if pl.Impulses > 0 {
		avg := human(pl.Taken / time.Duration(pl.Impulses))
		return p.Sprintf("%s in %s on average, %d missed, %s", played, avg, pl.Missed, ext)
	}
	return p.Sprintf("%s, %d missed, %s", played, pl.Missed, ext)
}

// statusText is the answer to STATUS.
func statusText(p *lang.Printer, g *adjudicator.Game) string {
	var b strings.Builder
	b.WriteString(p.Sprintf("Game %s (%s): %s.\n", g.ID, g.Scenario, g.Status.Message()))
	switch {
	case g.Status == adjudicator.Forming:
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			if !g.Players[side].HasJoined() {
				b.WriteString(p.Sprintf("Waiting for the %s player to JOIN.\n", side))
			}
		}
	case g.Status == adjudicator.Playing && g.Paused:
		b.WriteString(p.Sprintf("Paused by the director, impulse %s to play, with %s left.\n", g.Next.String(), human(g.Left)))
	case g.Status == adjudicator.Playing:
		b.WriteString(p.Sprintf("Impulse %s: the %s player is to move, by %s.\n", g.Next.String(), g.Next.Side, adjudicator.FormatTime(g.Due)))
	default:
		b.WriteString(p.Sprintf("Result: %s.\n", resultText(p, g.Result)))
	}
	b.WriteString(p.Sprintf("German VP: %d.\n\n", g.State.VP))
	s, err := g.Rules()
	if err == nil {
		b.WriteString(positionText(p, g, s))
		b.WriteString(ableSummary(p, g, s))
	}
	b.WriteString(p.Sprintf("\nLog head: %s\n", g.Head))
	return b.String()
}

// positionText lists every area and zone with units, by number.
func positionText(p *lang.Printer, g *adjudicator.Game, s *rules.Scenario) string {
	byPlace := map[rules.Place][]*rules.UnitState{}
	var places []rules.Place
	for _, u := range g.State.Units {
		if !u.OnMap() {
			continue
		}
		if byPlace[u.Place] == nil {
			places = append(places, u.Place)
		}
		byPlace[u.Place] = append(byPlace[u.Place], u)
	}
	sort.Slice(places, func(i, j int) bool {
		a, b := places[i], places[j]
		if a.IsZone() != b.IsZone() {
			return !a.IsZone()
		}
		if a.IsZone() {
			return a.String() < b.String()
		}
		return a.Area < b.Area
	})
	var b strings.Builder
	b.WriteString(p.Sprintf("Position:\n"))
	for _, pl := range places {
		name := p.Text(s.Map.PlaceMessage(pl))
		if !pl.IsZone() {
			if a := s.Map.Area(pl.Area); a != nil {
				name = fmt.Sprintf("%d %s", pl.Area, a.Name)
			}
			if side, ok := g.State.Control[pl.Area]; ok {
				name += " (" + p.Side(side) + ")"
			}
		}
		var us []string
		for _, u := range byPlace[pl] {
			us = append(us, unitShort(s, u))
		}
		b.WriteString("  " + lang.Pad(name, 28) + " " + p.Text(rules.List(us)) + "\n")
	}
	return b.String()
}

func unitShort(s *rules.Scenario, u *rules.UnitState) string {
	info := s.OOB.Unit(u.ID)
	t := u.ID + " " + strings.ToUpper(string(info.Side)[:1]) + fmt.Sprint(u.Strength)
	if u.Entrenched {
		t += "e"
	}
	return t
}

// unitsText is the answer to UNITS: the player's units with what each may
// do in his impulse (rules.Abilities: the judgement by which his orders
// are refused), and why not, by the rule.
func unitsText(p *lang.Printer, g *adjudicator.Game, s *rules.Scenario, side rules.Side) string {
	var b strings.Builder
	b.WriteString(p.Sprintf("Your units in game %s, impulse %s:\n\n", g.ID, g.Next.String()))
	able := abilities(s, g, side)
	// The units as the impulse judged finds them, beside their verdicts:
	// at a new turn, no longer marked moved (8.25); a reinforcement of
	// the impulse, in its zone (11.11).
	units := g.State.Units
	if len(able) > 0 {
		units = rules.ImpulseStart(s, g.State, side).Units
	}
	var whys []rules.Message
	for _, u := range units {
		info := s.OOB.Unit(u.ID)
		if info.Side != side {
			continue
		}
		b.WriteString(unitRow(p, s, u, info) + "\n")
		if a, ok := able[u.ID]; ok && a.Present {
			b.WriteString(verdictsText(p, a))
			whys = addWhys(whys, a)
		}
	}
	if len(able) > 0 {
		b.WriteString(p.Sprintf("\nWhat your units may do in impulse %s, and why not:\n", impulseOf(s, g, side)))
		if len(whys) == 0 {
			b.WriteString(p.Sprintf("  every unit may do all of it.\n"))
		}
		b.WriteString(whysText(p, whys))
	}
	return b.String()
}

// unitRow is a unit's line of UNITS: its id, type, SP, where it is and
// its markers.
func unitRow(p *lang.Printer, s *rules.Scenario, u *rules.UnitState, info *rules.Unit) string {
	where := p.Sprintf("arrives %s", info.Arrives)
	switch {
	case u.Eliminated:
		where = p.Sprintf("eliminated")
	case u.Exited:
		where = p.Sprintf("exited the map")
	case u.OnMap() && u.Place.IsZone():
		where = p.Text(s.Map.PlaceMessage(u.Place))
	case u.OnMap():
		where = fmt.Sprintf("%d %s", u.Place.Area, s.Map.Area(u.Place.Area).Name)
	}
	var notes []rules.Message
	if u.OnMap() {
		for _, n := range []struct {
			on bool
			m  rules.Message
		}{
			{u.Moved, rules.M("moved")},
			{u.Attacked, rules.M("attacked")},
			{u.Entrenched, rules.M("entrenched")},
			{!u.InSupply, rules.M("OUT OF SUPPLY")},
			{u.Dismounted, rules.M("dismounted (5 MP)")},
		} {
			if n.on {
				notes = append(notes, n.m)
			}
		}
	}
	row := "  " + lang.Pad(u.ID, 10) + " " + lang.Pad(p.Text(info.Type.Text()), 9) + " " + p.Sprintf("%d SP", u.Strength) + "  " + lang.Pad(where, 28) + " "
	if len(notes) > 0 {
		row += p.Text(rules.List(notes))
	}
	return strings.TrimRight(row, " ")
}

// ableSummary counts, for each action, the units of the side to move
// that may do it and those that may not, by the rule that bars them
// (rules.Abilities); nothing when the game is not being played.
func ableSummary(p *lang.Printer, g *adjudicator.Game, s *rules.Scenario) string {
	if g.Status != adjudicator.Playing || g.State == nil {
		return ""
	}
	side := g.Next.Side
	able := rules.Abilities(s, g.State, side)
	var b strings.Builder
	b.WriteString(p.Sprintf("\nWhat the %s units may do in %s (UNITS lists each unit and why):\n", side, g.Next.String()))
	for _, act := range rules.Actions {
		may, not := 0, 0
		var ruleList []string
		byRule := map[string]int{}
		for _, a := range able {
			switch v := a.Of(act); {
			case !a.Present:
			case v.May:
				may++
			default:
				not++
				if byRule[v.Rule] == 0 {
					ruleList = append(ruleList, v.Rule)
				}
				byRule[v.Rule]++
			}
		}
		line := rules.M("%s: %d may, %d may not", act.Text(), may, not)
		if not > 0 {
			counts := make([]rules.Message, len(ruleList))
			for i, r := range ruleList {
				counts[i] = rules.M("%s: %d", r, byRule[r])
			}
			line = rules.M("%s: %d may, %d may not (%s)", act.Text(), may, not, rules.List(counts))
		}
		b.WriteString("  " + p.Text(line) + "\n")
	}
	return b.String()
}

// abilities is what each unit of the side may do in its impulse, by unit
// id (rules.Abilities); none when the game is not being played.
func abilities(s *rules.Scenario, g *adjudicator.Game, side rules.Side) map[string]rules.Ability {
	if g.Status != adjudicator.Playing || g.State == nil {
		return nil
	}
	out := map[string]rules.Ability{}
	for _, a := range rules.Abilities(s, g.State, side) {
		out[a.Unit] = a
	}
	return out
}

// impulseOf is the side's impulse, as rules.Abilities judges it: the one
// in play if it is the side's, else its next.
func impulseOf(s *rules.Scenario, g *adjudicator.Game, side rules.Side) string {
	return rules.SideImpulse(s, g.State, side).Next.String()
}

// verdictsText writes a unit's verdicts, indented: "    move: no (5.23),
// attack: no (9.13), entrench: yes, artillery: yes", on one line where
// it fits in the width of a mail, else on two.
func verdictsText(p *lang.Printer, a rules.Ability) string {
	const indent = "    "
	parts := make([]rules.Message, len(rules.Actions))
	for i, act := range rules.Actions {
		parts[i] = rules.M("%s: %s", act.Text(), a.Of(act).Text())
	}
	if line := indent + p.Text(rules.List(parts)); lang.Width(line) <= width {
		return line + "\n"
	}
	half := len(parts) / 2
	return indent + p.Text(rules.List(parts[:half])) + "\n" + indent + p.Text(rules.List(parts[half:])) + "\n"
}

// addWhys adds the reasons of a unit's verdicts to those listed, each
// once, in the order first met.
func addWhys(whys []rules.Message, a rules.Ability) []rules.Message {
	for _, act := range rules.Actions {
		w := a.Of(act).Why
		if w.Key == "" || slices.ContainsFunc(whys, func(m rules.Message) bool { return m.String() == w.String() }) {
			continue
		}
		whys = append(whys, w)
	}
	return whys
}

// diceText is the answer to DICE.
func diceText(p *lang.Printer, g *adjudicator.Game, asker rules.Side) string {
	var b strings.Builder
	b.WriteString(p.Sprintf("The dice of game %s (B10):\n  commitment %s\n", g.ID, g.Commitment))
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		switch pl := g.Players[side]; {
		case pl.HasJoined() && side != asker && g.Status == adjudicator.Forming:
			// Until both have joined, a player does not see the other's
			// seed: the last to join could otherwise try seeds until one
			// gave him dice he liked, were the game's secret seed known
			// to him. Both are published when the game begins.
			b.WriteString(p.Sprintf("  %s seed: given; shown when the game begins\n", side))
		case pl.HasJoined():
			b.WriteString(p.Sprintf("  %s seed %q\n", side, pl.Seed))
		default:
			b.WriteString(p.Sprintf("  %s seed: not yet given (JOIN)\n", side))
		}
	}
	if g.Seed != "" {
		b.WriteString(p.Sprintf("  the game's seed, revealed:\n    %s\n", g.Seed))
	} else {
		b.WriteString(p.Sprintf("  the game's seed is revealed when the game ends\n"))
	}
	b.WriteString(p.Sprintf("  %d dice rolled so far\n", g.Rolls))
	return b.String()
}

// ordersOnFile is the answer to ORDERS: the orders of the player's last
// impulse as the referee keeps them.
func ordersOnFile(p *lang.Printer, log []adjudicator.Record, side rules.Side) string {
	for i := len(log) - 1; i >= 0; i-- {
		r := log[i]
		if r.Kind == adjudicator.KindImpulse && r.Side == side && r.Text != "" {
			return p.Sprintf("The orders of your last impulse, %s, as the referee holds them:\n%s", r.Impulse, lang.Indent(r.Text))
		}
	}
	return p.Sprintf("The referee holds no orders of yours for an impulse yet.")
}

// checkText is the answer to CHECK: the orders checked on the position as
// it is and, if the position accepts them, carried out on a copy of it to
// just before the first die (rules.Rehearse), without the opponent's
// standing orders. With errors it lists every one of them.
func checkText(p *lang.Printer, g *adjudicator.Game, s *rules.Scenario, side rules.Side, text string) string {
	o, err := ParseOrders(text, s, side)
	if err == nil && g.Next.Side != side {
		return p.Sprintf("CHECK: the orders read well; it is the %s impulse %s, so they could not be played now.", g.Next.Side, g.Next.String())
	}
	var es rules.OrderErrors
	if errors.As(err, &es) {
		// Lines that do not read: the others are checked all the same.
		err = es.With(g.CheckOrders(side, o)...)
	} else if err == nil {
		var rh *rules.Rehearsal
		if rh, err = rules.Rehearse(s, g.State, o); err == nil {
			return withNamed(adjudicator.WriteRehearsalIn(p, s, rh), namedText(p, g, s, side, o))
		}
	}
	if errors.As(err, &es) {
		return withNamed(checkErrorsText(p, es), namedText(p, g, s, side, o))
	}
	return p.Sprintf("CHECK: %s", rules.MessageOf(err))
}

// withNamed ends CHECK's answer with what the units named may do, after a
// blank line.
func withNamed(answer, named string) string {
	if named == "" {
		return answer
	}
	return strings.TrimRight(answer, "\n") + named
}

// namedText is what each unit the orders name may do in the impulse, as
// UNITS says it (rules.Abilities, by which the orders are checked), and
// why not; nothing when they name none.
func namedText(p *lang.Printer, g *adjudicator.Game, s *rules.Scenario, side rules.Side, o *rules.Orders) string {
	able := abilities(s, g, side)
	var b strings.Builder
	var whys []rules.Message
	seen := map[string]bool{}
	for _, id := range namedUnits(o) {
		a, ok := able[id]
		if !ok || seen[id] {
			continue
		}
		seen[id] = true
		if b.Len() == 0 {
			b.WriteString(p.Sprintf("\n\nWhat the units named may do in %s (UNITS):\n", g.Next.String()))
		}
		b.WriteString("  " + id + "\n" + verdictsText(p, a))
		whys = addWhys(whys, a)
	}
	b.WriteString(whysText(p, whys))
	return b.String()
}

// whysText lists the reasons of the verdicts shown, each once.
func whysText(p *lang.Printer, whys []rules.Message) string {
	var b strings.Builder
	for _, w := range whys {
		b.WriteString(wrapLine(p.Text(w), "  - ", "    ") + "\n")
	}
	return b.String()
}

// namedUnits lists the units the orders move, entrench or attack with, in
// the order named.
func namedUnits(o *rules.Orders) []string {
	if o == nil {
		return nil
	}
	var ids []string
	for _, ord := range o.List {
		switch x := ord.(type) {
		case rules.Move:
			ids = append(ids, x.Units...)
		case rules.Entrench:
			ids = append(ids, x.Units...)
		case rules.Attack:
			ids = append(ids, x.With...)
		}
	}
	return ids
}

// checkErrorsText is the answer to a CHECK whose orders have errors, of
// whatever kind: lines that do not read, orders the position refuses.
func checkErrorsText(p *lang.Printer, es rules.OrderErrors) string {
	return p.Sprintf("CHECK: %s\nNothing was applied.", orderErrorsText(p, es))
}

// welcomeText is the mail that gives a player his token.
func welcomeText(p *lang.Printer, g *adjudicator.Game, side rules.Side, token string, referee string) string {
	return wrap(p.Sprintf(`Welcome to game %s of Tigers in the Mist (%s).

You play the %s side; your opponent is %s.
Each impulse gives a player %s to send his orders.

Your secret token:

    %s

Put it on a TOKEN line in every mail you send to the referee: the referee
accepts orders only from your address and with your token, so that nobody
else can give orders in your name. Keep it to yourself.

To join, answer this mail (to %s) with:

    GAME %s
    TOKEN %s
    JOIN SEED any words you like

The words after SEED are your contribution to the game's dice: the dice come
from the game's secret seed and both players' seeds, so neither the referee's
operator nor either player could have chosen them (B10). The game's
commitment, the SHA-256 of its secret seed, is:

    %s

The game begins when both players have joined: the mail that says so
brings the scenario brief (the map, supply, victory conditions, special rules
and reinforcements; BRIEF sends it again). Send HELP for the order language,
with examples from your own units. A player on a phone may send PICTURE OFF
to have his mails without the map picture.
`, g.ID, g.Scenario, side, g.Players[side.Enemy()].Address, human(g.Deadline), token, referee, g.ID, token, g.Commitment)) +
		otherLanguages(p, false)
}

// otherLanguages are the lines that end a welcome, each in another
// language than the welcome's, saying how to have the mails in it: a
// player who cannot read the welcome reads how to change its language.
// tournament says whether the welcome is a tournament's, whose mails
// choose no language: each of its games does.
func otherLanguages(p *lang.Printer, tournament bool) string {
	var b strings.Builder
	for _, code := range lang.Codes {
		if code != p.Code() {
			b.WriteString("\n" + wrap(LanguageLine(code, tournament)) + "\n")
		}
	}
	return b.String()
}

// LanguageLine is the line of a welcome, in the language code, that tells
// how to have the mails in that language: of the game, or of each game of
// a tournament. It is deliberately in another language than the rest of
// the welcome.
func LanguageLine(code string, tournament bool) string {
	p := lang.For(code)
	if tournament {
		return p.Sprintf("To have the mails of your games in %s, send LANGUAGE %s in a mail of each game, with its GAME and TOKEN lines.", lang.Name(code), code)
	}
	return p.Sprintf("To have the mails of this game in %s, send LANGUAGE %s with your GAME and TOKEN lines.", lang.Name(code), code)
}

// reportSubject is the subject of an impulse's report: the game, the
// impulse played and what comes next.
func reportSubject(p *lang.Printer, g *adjudicator.Game, r adjudicator.Record) string {
	switch {
	case g.Status == adjudicator.Finished:
		return p.Sprintf("[%s] %s played: the game is over, %s", g.ID, r.Impulse, resultText(p, g.Result))
	case g.Paused:
		return p.Sprintf("[%s] %s played; %s next (paused)", g.ID, r.Impulse, g.Next.String())
	}
	return p.Sprintf("[%s] %s played; %s next, due by %s", g.ID, r.Impulse, g.Next.String(), adjudicator.FormatTime(g.Due))
}

// standing is the echo of a player's standing orders that ends every mail
// to him, so that he always knows what the referee holds. The orders are
// written as the order language has them.
func standing(p *lang.Printer, g *adjudicator.Game, side rules.Side) string {
	if g == nil || g.State == nil {
		return ""
	}
	sd := g.State.Standing[side]
	var b strings.Builder
	b.WriteString(p.Sprintf("\nYour standing orders on file:\n"))
	fmt.Fprintf(&b, "  %s\n", sd.Blow)
	for _, d := range sd.Defend {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	return b.String()
}

// inPlay says which impulse is in play and until when, for replies to
// orders that were refused.
func inPlay(p *lang.Printer, g *adjudicator.Game) string {
	if g.Status != adjudicator.Playing {
		return p.Sprintf("Game %s is %s.\n", g.ID, g.Status.Message())
	}
	if g.Paused {
		return p.Sprintf("Game %s is paused by the director; impulse %s is next.\n", g.ID, g.Next.String())
	}
	return p.Sprintf("In play: the %s impulse %s, due by %s.\n", g.Next.Side, g.Next.String(), adjudicator.FormatTime(g.Due))
}

// maxErrors is how many errors an answer lists: a mail of many bad lines
// is answered with the first of them and the count of the rest, not with
// a copy of itself.
const maxErrors = 30

func orderErrorsText(p *lang.Printer, es rules.OrderErrors) string {
	var b strings.Builder
	b.WriteString(p.Sprintf("Your orders have %d error(s):\n\n", len(es)))
	for i, e := range es {
		if i == maxErrors {
			b.WriteString(p.Sprintf("and %d more errors.\n", len(es)-maxErrors))
			break
		}
		// The quoted line stays on one line; the message is wrapped as
		// a list item.
		b.WriteString(lineHead(p, e.Line, clip(e.Text, 100)) + "\n" + wrapLine(clipEcho(p, errorText(p, e)), "  ", "  ") + "\n")
	}
	return b.String()
}

// lineHead quotes a line of the player's mail, "line 3: MOVE 116/60 62",
// as the printer quotes a line with an error (lang.Printer.Error).
func lineHead(p *lang.Printer, n int, text string) string {
	return p.Error(rules.OrderError{Line: n, Msg: text})
}

// errorText is why an order was refused, in the reader's language. The
// English is the error's own text, as the rules wrote it.
func errorText(p *lang.Printer, e rules.OrderError) string {
	if e.Why.Key == "" || p.Code() == lang.English {
		return e.Msg
	}
	return p.Text(e.Why)
}

// The bounds on what an error's message echoes of the mail, so that a
// hostile line (a word of 300 KB) is not sent back whole.
const (
	maxEchoWord  = 40   // bytes of one word: the referee's words are shorter
	maxEchoQuote = 60   // bytes of a quoted span: the referee quotes the mail alone
	maxMessage   = 2000 // bytes of a whole message, a last resort
)

// clipEcho bounds what an error's message echoes of the player's mail and
// keeps the referee's own explanation whole: a long word, as in "unknown
// unit xxx...", and a long quoted span, as in "\"a b c ...\" is more than
// DRAW takes", are cut short with "...". A message still longer than
// maxMessage, which the parser's own texts never are, is cut after a
// sentence, or else a word, and says so in the reader's language.
func clipEcho(p *lang.Printer, msg string) string {
	words := strings.Fields(msg)
	for i, w := range words {
		words[i] = clipWord(w)
	}
	msg = clipQuotes(strings.Join(words, " "))
	if len(msg) <= maxMessage {
		return msg
	}
	cut := strings.LastIndex(msg[:maxMessage], ". ") + 1
	if j := strings.LastIndex(msg[:maxMessage], "。"); j >= 0 && j+len("。") > cut {
		cut = j + len("。")
	}
	if cut == 0 {
		cut = strings.LastIndexByte(msg[:maxMessage], ' ')
	}
	if cut <= 0 {
		return clip(msg, maxMessage)
	}
	return p.Sprintf("%s (the rest of this message is left out)", msg[:cut])
}

// clipWord cuts a word longer than maxEchoWord short. Japanese text is
// written without spaces, so a "word" of it may be a whole sentence of the
// referee's: only its runs of narrow characters, where an echo of the
// mail is, are cut.
func clipWord(w string) string {
	if len(w) <= maxEchoWord {
		return w
	}
	var b strings.Builder
	for w != "" {
		wide := lang.RuneWidth(firstRune(w)) == 2
		i := 0
		for i < len(w) {
			r, size := utf8.DecodeRuneInString(w[i:])
			if (lang.RuneWidth(r) == 2) != wide {
				break
			}
			i += size
		}
		if wide {
			b.WriteString(w[:i])
		} else {
			b.WriteString(clipNarrow(w[:i]))
		}
		w = w[i:]
	}
	return b.String()
}

// clipNarrow cuts a run of narrow characters to maxEchoWord bytes and
// "...". A closing quote or stop after it is kept, so that the quotes stay
// paired.
func clipNarrow(w string) string {
	if len(w) <= maxEchoWord {
		return w
	}
	body := strings.TrimRight(w, `".,:;?!)`)
	if len(w)-len(body) > 3 {
		body = w[:len(w)-3]
	}
	return clip(body, maxEchoWord) + w[len(body):]
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// clipQuotes shortens each span of s between double quotes (written with
// %q, so that a quote within is escaped) to about maxEchoQuote bytes, cut
// after a word.
func clipQuotes(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(s) {
			break // no closing quote: nothing is quoted
		}
		q := s[i+1 : j]
		if len(q) > maxEchoQuote {
			if k := strings.LastIndexByte(q[:maxEchoQuote], ' '); k > 0 {
				q = q[:k] + "..."
			} else {
				q = clip(q, maxEchoQuote)
			}
		}
		b.WriteString(s[:i+1] + q + `"`)
		s = s[j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// clip shortens a text quoted in an answer to about n bytes.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// subjectLine is the subject of a notice: the first line of its text as
// wrapped, or, where the first line as written ends a sentence with 。,
// that sentence: a Japanese line is wrapped between any two characters,
// and its subject would end in the middle of a word.
func subjectLine(text, wrapped string) string {
	l, _, _ := strings.Cut(text, "\n")
	if i := strings.Index(l, "。"); i >= 0 {
		return l[:i]
	}
	return subjectOf(wrapped)
}

// subjectOf is a text's first line without its full stop, for a subject.
func subjectOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimSuffix(strings.TrimSuffix(l, "."), "。")
}

// human writes a duration to the minute, as people do: 72h, 1h30m, 45m.
func human(d time.Duration) string { return adjudicator.FormatDuration(d.Round(time.Minute)) }
