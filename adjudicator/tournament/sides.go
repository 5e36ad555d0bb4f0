package tournament

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/rules"
)

// ParseBid reads the words after BID: a side and the VP given up for it, as
// "german 3". A bid for both sides, a negative bid or one that is no whole
// number is refused with the reason.
func ParseBid(words []string) (Bid, error) {
	const form = "a bid is a side and the VP you give up to play it, as BID german 3"
	if len(words) != 2 {
		if len(words) > 2 {
			return Bid{}, bidErr("one side only: " + form)
		}
		return Bid{}, bidErr(form)
	}
	side, ok := sideOf(words[0])
	if !ok {
		return Bid{}, bidErrf("%q is no side: %s", words[0], form)
	}
	vp, err := strconv.Atoi(words[1])
	switch {
	case err != nil:
		return Bid{}, bidErrf("%q is not a whole number of VP: %s", words[1], form)
	case vp < 0:
		return Bid{}, bidErrf("a bid cannot be negative (%d): bid 0 to ask for the side and give nothing", vp)
	case vp > 1000:
		return Bid{}, bidErrf("a bid of %d VP is more than any game gives", vp)
	}
	return Bid{Side: side, VP: vp}, nil
}

// ErrBid is the reason a bid is refused; nothing was changed.
type ErrBid struct{ Why string }

func (e *ErrBid) Error() string { return e.Why }

func bidErr(why string) error { return &ErrBid{why} }

func bidErrf(format string, args ...any) error { return &ErrBid{fmt.Sprintf(format, args...)} }

// Bid takes player i's sealed bid for his pairing of the round in play. A
// bid is refused (*ErrBid) when the tournament does not take bids, the
// player has no pairing waiting for bids, the bids are closed, or he has
// bid already. When both bids are in, the sides are resolved and the
// records carry both bids, revealed.
func (t *Tournament) Bid(i int, b Bid, now time.Time) ([]Record, error) {
	now = now.UTC().Truncate(time.Millisecond)
	r := t.Current()
	switch {
	case t.Sides != SidesBids:
		return nil, &ErrBid{fmt.Sprintf("tournament %s decides sides by the rule %q, not by bids", t.ID, t.Sides)}
	case t.Status == Over:
		return nil, &ErrBid{fmt.Sprintf("tournament %s is over", t.ID)}
	case r == nil:
		return nil, &ErrBid{"no round is paired yet"}
	}
	k := -1
	for j, p := range r.Pairings {
		if p.Of(i) >= 0 && !p.Bye() {
			k = j
		}
	}
	if k < 0 {
		return nil, &ErrBid{fmt.Sprintf("you have no game in round %d to bid for", r.N)}
	}
	p := r.Pairings[k]
	switch {
	case p.Sided():
		return nil, &ErrBid{fmt.Sprintf("the sides of your round %d game are decided already: you play the %s side", r.N, p.SideOf(i).Title())}
	case !now.Before(r.BidsDue):
		return nil, &ErrBid{fmt.Sprintf("the bids of round %d closed at %s", r.N, adjudicator.FormatTime(r.BidsDue))}
	case p.Bids[p.Of(i)] != nil:
		return nil, &ErrBid{"your bid is in already, and sealed: it cannot be changed"}
	}
	b.Time = now
	p.Bids[p.Of(i)] = &b
	out := []Record{t.record(Record{Kind: KindBid, Time: now, Round: r.N, Pairing: k + 1, Player: i + 1, BidHash: bidHash(t.ID, r.N, i, b)})}
	if p.Bids[0] != nil && p.Bids[1] != nil {
		rec, err := t.resolve(r, k, now)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// bidHash seals a bid in the log: the SHA-256 of the tournament, round,
// player and bid, which the revealed bid must match.
func bidHash(id string, round, player int, b Bid) string {
	data, _ := json.Marshal(struct {
		T string `json:"t"`
		R int    `json:"r"`
		P int    `json:"p"`
		Bid
	}{id, round, player + 1, b})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// CloseBids resolves, once the bids of the round in play are due, the
// sides of every pairing still waiting, with the bids that came in.
func (t *Tournament) CloseBids(now time.Time) ([]Record, error) {
	r := t.Current()
	if r == nil || t.Sides != SidesBids || now.Before(r.BidsDue) {
		return nil, nil
	}
	var out []Record
	for k, p := range r.Pairings {
		if p.Bye() || p.Sided() {
			continue
		}
		rec, err := t.resolve(r, k, now)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// BidsOpen reports whether the round in play waits for bids.
func (t *Tournament) BidsOpen() bool {
	r := t.Current()
	if r == nil || t.Sides != SidesBids {
		return false
	}
	for _, p := range r.Pairings {
		if !p.Bye() && !p.Sided() {
			return true
		}
	}
	return false
}

// resolve decides pairing k's sides from its bids (docs/tournaments.md):
// two bids for different sides give each his side, and nobody gives VP;
// two for the same side give it to the higher bid, which gives its VP to
// the opponent; equal bids, or none, are decided by a die, and the winner
// of a die for equal bids gives his bid; a lone bid takes its side for
// nothing.
func (t *Tournament) resolve(r *Round, k int, now time.Time) (Record, error) {
	p := r.Pairings[k]
	a, b := p.Bids[0], p.Bids[1]
	// take gives player i the side; he gives give VP for it.
	take := func(i int, side rules.Side, give int, dice []adjudicator.Roll) Record {
		p.German, p.Give = i, give
		if side == rules.Allied {
			p.German, p.Give = p.Opponent(i), -give
		}
		text := fmt.Sprintf("bids: %s takes the %s side", t.Entrants[i].Name, side.Title())
		if give > 0 {
			text += fmt.Sprintf(" and gives %d VP", give)
		}
		if len(dice) > 0 {
			text += " (equal bids: the die)"
		}
		return t.record(Record{Kind: KindSides, Time: now, Round: r.N, Pairing: k + 1, German: p.German + 1, Give: p.Give, Bids: p.Bids, Text: text, Dice: dice})
	}
	switch {
	case a != nil && b == nil:
		return take(p.A, a.Side, 0, nil), nil
	case a == nil && b != nil:
		return take(p.B, b.Side, 0, nil), nil
	case a == nil && b == nil:
		return t.drawSides(r, k, "no bids: sides by the dice", now)
	case a.Side != b.Side:
		return take(p.A, a.Side, 0, nil), nil
	case a.VP > b.VP:
		return take(p.A, a.Side, a.VP, nil), nil
	case b.VP > a.VP:
		return take(p.B, b.Side, b.VP, nil), nil
	}
	roll, err := t.roll(fmt.Sprintf("round %d pairing %d: equal bids of %d for the %s side (1-5 %s, 6-10 %s)", r.N, k+1, a.VP, a.Side.Title(), t.Entrants[p.A].Name, t.Entrants[p.B].Name))
	if err != nil {
		return Record{}, err
	}
	i := p.A
	if roll.Value > 5 {
		i = p.B
	}
	return take(i, a.Side, a.VP, []adjudicator.Roll{roll}), nil
}

// BidText writes a bid as a player reads it.
func BidText(b *Bid) string {
	if b == nil {
		return "no bid"
	}
	return fmt.Sprintf("%s %d", strings.ToLower(string(b.Side)), b.VP)
}
