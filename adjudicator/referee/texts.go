package referee

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"titm/adjudicator"
	"titm/rules"
)

// The texts of the mails. They are plain text that reads in 78 columns.

// width is the columns a line of a reply or a notice keeps to.
const width = 78

// lineQuote is a line that quotes a line of the player's orders, in an
// answer that lists their errors: it stays whole.
var lineQuote = regexp.MustCompile(`^line \d+: `)

// wrap breaks the prose of a text, its lines that start in the first
// column, at spaces into lines of width columns. Indented lines are quoted
// material (orders, seeds, hashes, the rows of a table) and stay whole, as
// do lines quoting an order and words longer than a line.
func wrap(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, " ") && !lineQuote.MatchString(l) {
			lines[i] = wrapLine(l, "", "")
		}
	}
	return strings.Join(lines, "\n")
}

// wrapLine breaks s at spaces into lines of width columns at most, the
// first begun with first and the others with rest: a list item keeps its
// indentation.
func wrapLine(s, first, rest string) string {
	if utf8.RuneCountInString(first+s) <= width {
		return first + s
	}
	var b strings.Builder
	line, n := first, utf8.RuneCountInString(first)
	empty := true
	for _, w := range strings.Fields(s) {
		wn := utf8.RuneCountInString(w)
		if !empty && n+1+wn > width {
			b.WriteString(line + "\n")
			line, n, empty = rest, utf8.RuneCountInString(rest), true
		}
		if !empty {
			line, n = line+" ", n+1
		}
		line, n, empty = line+w, n+wn, false
	}
	b.WriteString(line)
	return b.String()
}

// startText is the first report: the game begins, and the dice are fixed.
func startText(g *adjudicator.Game) string {
	return fmt.Sprintf("Game %s (%s) begins: both players have joined.\n\n"+
		"The dice are fixed from now on (B10). They come from the game's secret seed,\n"+
		"committed to before you joined:\n  commitment %s\nand from both players' seeds:\n  German %q\n  Allied %q\n"+
		"The secret seed is revealed when the game ends; then anyone can check every\ndie (titm verify).\n\n"+
		"The German player moves first: impulse %s, due by %s.\nLog head: %s\n",
		g.ID, g.Scenario, g.Commitment, g.Players[rules.German].Seed, g.Players[rules.Allied].Seed, g.Next, adjudicator.FormatTime(g.Due), g.Head)
}

// endText is the end of a game: the result, the revealed seed and each
// player's promptness.
func endText(g *adjudicator.Game) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s is over: %s.\n\n", g.ID, g.Result)
	fmt.Fprintf(&b, "The game's secret seed is revealed:\n  %s\nIts SHA-256 is the commitment published when the game was made:\n  %s\n", g.Seed, g.Commitment)
	b.WriteString("With the log (titm export) anyone can now recompute every die and replay\nevery impulse (titm verify).\n\n")
	b.WriteString(promptnessText(g))
	fmt.Fprintf(&b, "\nLog head: %s\n", g.Head)
	return b.String()
}

// promptnessText is each player's promptness, as the final report gives
// it for tournaments.
func promptnessText(g *adjudicator.Game) string {
	var b strings.Builder
	b.WriteString("Promptness:\n")
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		fmt.Fprintf(&b, "  %s: %s\n", side.Title(), g.Players[side].Promptness())
	}
	return b.String()
}

// statusText is the answer to STATUS.
func statusText(g *adjudicator.Game) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s (%s): %s.\n", g.ID, g.Scenario, g.Status)
	switch {
	case g.Status == adjudicator.Forming:
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			if !g.Players[side].HasJoined() {
				fmt.Fprintf(&b, "Waiting for the %s player to JOIN.\n", side.Title())
			}
		}
	case g.Status == adjudicator.Playing && g.Paused:
		fmt.Fprintf(&b, "Paused by the director, impulse %s to play, with %s left.\n", g.Next, human(g.Left))
	case g.Status == adjudicator.Playing:
		fmt.Fprintf(&b, "Impulse %s: the %s player is to move, by %s.\n", g.Next, g.Next.Side.Title(), adjudicator.FormatTime(g.Due))
	default:
		fmt.Fprintf(&b, "Result: %s.\n", g.Result)
	}
	fmt.Fprintf(&b, "German VP: %d.\n\n", g.State.VP)
	s, err := g.Rules()
	if err == nil {
		b.WriteString(positionText(g, s))
	}
	fmt.Fprintf(&b, "\nLog head: %s\n", g.Head)
	return b.String()
}

// positionText lists every area and zone with units, by number.
func positionText(g *adjudicator.Game, s *rules.Scenario) string {
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
	b.WriteString("Position:\n")
	for _, p := range places {
		name := "zone " + p.String()
		if !p.IsZone() {
			if a := s.Map.Area(p.Area); a != nil {
				name = fmt.Sprintf("%d %s", p.Area, a.Name)
			}
			if side, ok := g.State.Control[p.Area]; ok {
				name += " (" + side.Title() + ")"
			}
		}
		var us []string
		for _, u := range byPlace[p] {
			us = append(us, unitShort(s, u))
		}
		fmt.Fprintf(&b, "  %-28s %s\n", name, strings.Join(us, ", "))
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
// still do this turn.
func unitsText(g *adjudicator.Game, s *rules.Scenario, side rules.Side) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Your units in game %s, impulse %s:\n\n", g.ID, g.Next)
	for _, u := range g.State.Units {
		info := s.OOB.Unit(u.ID)
		if info.Side != side {
			continue
		}
		where := "arrives " + info.Arrives
		switch {
		case u.Eliminated:
			where = "eliminated"
		case u.Exited:
			where = "exited the map"
		case u.OnMap() && u.Place.IsZone():
			where = "zone " + u.Place.String()
		case u.OnMap():
			where = fmt.Sprintf("%d %s", u.Place.Area, s.Map.Area(u.Place.Area).Name)
		}
		var notes []string
		if u.OnMap() {
			if u.Moved {
				notes = append(notes, "moved")
			}
			if u.Attacked {
				notes = append(notes, "attacked")
			}
			if u.Entrenched {
				notes = append(notes, "entrenched")
			}
			if !u.InSupply {
				notes = append(notes, "OUT OF SUPPLY")
			}
			if u.Dismounted {
				notes = append(notes, "dismounted (5 MP)")
			}
			if !u.Moved && !u.Attacked && !u.Bridging {
				notes = append(notes, "may move")
			}
		}
		fmt.Fprintf(&b, "  %-10s %-9s %d SP  %-28s %s\n", u.ID, info.Type, u.Strength, where, strings.Join(notes, ", "))
	}
	return b.String()
}

// diceText is the answer to DICE.
func diceText(g *adjudicator.Game, asker rules.Side) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The dice of game %s (B10):\n  commitment %s\n", g.ID, g.Commitment)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		switch p := g.Players[side]; {
		case p.HasJoined() && side != asker && g.Status == adjudicator.Forming:
			// Until both have joined, a player does not see the other's
			// seed: the last to join could otherwise try seeds until one
			// gave him dice he liked, were the game's secret seed known
			// to him. Both are published when the game begins.
			fmt.Fprintf(&b, "  %s seed: given; shown when the game begins\n", side.Title())
		case p.HasJoined():
			fmt.Fprintf(&b, "  %s seed %q\n", side.Title(), p.Seed)
		default:
			fmt.Fprintf(&b, "  %s seed: not yet given (JOIN)\n", side.Title())
		}
	}
	if g.Seed != "" {
		fmt.Fprintf(&b, "  the game's seed, revealed:\n    %s\n", g.Seed)
	} else {
		b.WriteString("  the game's seed is revealed when the game ends\n")
	}
	fmt.Fprintf(&b, "  %d dice rolled so far\n", g.Rolls)
	return b.String()
}

// ordersOnFile is the answer to ORDERS: the orders of the player's last
// impulse as the referee keeps them.
func ordersOnFile(log []adjudicator.Record, side rules.Side) string {
	for i := len(log) - 1; i >= 0; i-- {
		r := log[i]
		if r.Kind == adjudicator.KindImpulse && r.Side == side && r.Text != "" {
			return fmt.Sprintf("The orders of your last impulse, %s, as the referee holds them:\n%s", r.Impulse, indent(r.Text))
		}
	}
	return "The referee holds no orders of yours for an impulse yet."
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}

// checkText is the answer to CHECK: the orders checked on the position as
// it is and, if the position accepts them, carried out on a copy of it to
// just before the first die (rules.Rehearse), without the opponent's
// standing orders. With errors it lists every one of them.
func checkText(g *adjudicator.Game, s *rules.Scenario, side rules.Side, text string) string {
	o, err := ParseOrders(text, s, side)
	if err == nil && g.Next.Side != side {
		return fmt.Sprintf("CHECK: the orders read well; it is the %s impulse %s, so they could not be played now.", g.Next.Side.Title(), g.Next)
	}
	var es rules.OrderErrors
	if errors.As(err, &es) {
		// Lines that do not read: the others are checked all the same.
		err = es.With(g.CheckOrders(side, o)...)
	} else if err == nil {
		var rh *rules.Rehearsal
		if rh, err = rules.Rehearse(s, g.State, o); err == nil {
			return adjudicator.WriteRehearsal(s, rh)
		}
	}
	if errors.As(err, &es) {
		return checkErrorsText(es)
	}
	return "CHECK: " + err.Error()
}

// checkErrorsText is the answer to a CHECK whose orders have errors, of
// whatever kind: lines that do not read, orders the position refuses.
func checkErrorsText(es rules.OrderErrors) string {
	return "CHECK: " + orderErrorsText(es) + "\nNothing was applied."
}

// welcomeText is the mail that gives a player his token.
func welcomeText(g *adjudicator.Game, side rules.Side, token string, referee string) string {
	return fmt.Sprintf(`Welcome to game %s of Tigers in the Mist (%s).

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
`, g.ID, g.Scenario, side.Title(), g.Players[side.Enemy()].Address, human(g.Deadline), token, referee, g.ID, token, g.Commitment)
}

// reportSubject is the subject of an impulse's report: the game, the
// impulse played and what comes next.
func reportSubject(g *adjudicator.Game, r adjudicator.Record) string {
	switch {
	case g.Status == adjudicator.Finished:
		return fmt.Sprintf("[%s] %s played: the game is over, %s", g.ID, r.Impulse, g.Result)
	case g.Paused:
		return fmt.Sprintf("[%s] %s played; %s next (paused)", g.ID, r.Impulse, g.Next)
	}
	return fmt.Sprintf("[%s] %s played; %s next, due by %s", g.ID, r.Impulse, g.Next, adjudicator.FormatTime(g.Due))
}

// standing is the echo of a player's standing orders that ends every mail
// to him, so that he always knows what the referee holds.
func standing(g *adjudicator.Game, side rules.Side) string {
	if g == nil || g.State == nil {
		return ""
	}
	sd := g.State.Standing[side]
	var b strings.Builder
	b.WriteString("\nYour standing orders on file:\n")
	fmt.Fprintf(&b, "  %s\n", sd.Blow)
	for _, d := range sd.Defend {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	return b.String()
}

// inPlay says which impulse is in play and until when, for replies to
// orders that were refused.
func inPlay(g *adjudicator.Game) string {
	if g.Status != adjudicator.Playing {
		return fmt.Sprintf("Game %s is %s.\n", g.ID, g.Status)
	}
	if g.Paused {
		return fmt.Sprintf("Game %s is paused by the director; impulse %s is next.\n", g.ID, g.Next)
	}
	return fmt.Sprintf("In play: the %s impulse %s, due by %s.\n", g.Next.Side.Title(), g.Next, adjudicator.FormatTime(g.Due))
}

// maxErrors is how many errors an answer lists: a mail of many bad lines
// is answered with the first of them and the count of the rest, not with
// a copy of itself.
const maxErrors = 30

func orderErrorsText(es rules.OrderErrors) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Your orders have %d error(s):\n\n", len(es))
	for i, e := range es {
		if i == maxErrors {
			fmt.Fprintf(&b, "and %d more errors.\n", len(es)-maxErrors)
			break
		}
		// The quoted line stays on one line; the message is wrapped as
		// a list item.
		fmt.Fprintf(&b, "line %d: %s\n%s\n", e.Line, clip(e.Text, 100), wrapLine(clipEcho(e.Msg), "  ", "  "))
	}
	return b.String()
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
// sentence, or else a word, and says so.
func clipEcho(msg string) string {
	words := strings.Fields(msg)
	for i, w := range words {
		if len(w) > maxEchoWord {
			// A closing quote or stop after the word is kept, so that
			// the quotes stay paired.
			body := strings.TrimRight(w, `".,:;?!)`)
			if len(w)-len(body) > 3 {
				body = w[:len(w)-3]
			}
			words[i] = clip(body, maxEchoWord) + w[len(body):]
		}
	}
	msg = clipQuotes(strings.Join(words, " "))
	if len(msg) <= maxMessage {
		return msg
	}
	cut := strings.LastIndex(msg[:maxMessage], ". ") + 1
	if cut == 0 {
		cut = strings.LastIndexByte(msg[:maxMessage], ' ')
	}
	if cut <= 0 {
		return clip(msg, maxMessage)
	}
	return msg[:cut] + " (the rest of this message is left out)"
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

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimSuffix(l, ".")
}

// human writes a duration to the minute, as people do: 72h, 1h30m, 45m.
func human(d time.Duration) string { return adjudicator.FormatDuration(d.Round(time.Minute)) }
