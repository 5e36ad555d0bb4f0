package tournament

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
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
// number is refused with the reason, in a message for the player's
// language (*ErrBid).
func ParseBid(words []string) (Bid, error) {
	form := rules.M("a bid is a side and the VP you give up to play it, as BID german 3")
	if len(words) != 2 {
		if len(words) > 2 {
			return Bid{}, bidErr(rules.M("one side only: %s", form))
		}
		return Bid{}, bidErr(form)
	}
	side, ok := sideOf(words[0])
	if !ok {
		return Bid{}, bidErr(rules.M("%q is no side: %s", words[0], form))
	}
	vp, err := strconv.Atoi(words[1])
	switch {
	case err != nil:
		return Bid{}, bidErr(rules.M("%q is not a whole number of VP: %s", words[1], form))
	case vp < 0:
		return Bid{}, bidErr(rules.M("a bid cannot be negative (%d): bid 0 to ask for the side and give nothing", vp))
	case vp > 1000:
		return Bid{}, bidErr(rules.M("a bid of %d VP is more than any game gives", vp))
	}
	return Bid{Side: side, VP: vp}, nil
}

// ErrBid is the reason a bid is refused; nothing was changed. Its Error is
// the English; the player reads Why in his language (rules.MessageOf finds
// it, as the error wraps it).
type ErrBid struct{ Why rules.Message }

func (e *ErrBid) Error() string { return e.Why.String() }

// Unwrap gives the reason as a message's error, for rules.MessageOf.
func (e *ErrBid) Unwrap() error { return e.Why.Err() }

func bidErr(why rules.Message) error { return &ErrBid{why} }

// Bid takes player i's sealed bid for his pairing of the round in play. A
// bid is refused (*ErrBid) when the tournament does not take bids, the
// player has no pairing waiting for bids, the bids are closed, or he has
// bid already. The bid is salted from the tournament's seed before its hash
// goes into the log. When both bids are in, the sides are resolved and the
// records carry both bids, revealed.
func (t *Tournament) Bid(i int, b Bid, now time.Time) ([]Record, error) {
	now = now.UTC().Truncate(time.Millisecond)
	r, k, err := t.biddable(i, now)
	if err != nil {
		return nil, err
	}
	if t.secret == nil {
		return nil, fmt.Errorf("tournament %s: a bid is sealed with the tournament's seed, which is not loaded", t.ID)
	}
	b.Salt = t.bidSalt(r.N, i)
	return t.takeBid(r, k, i, b, now)
}

// biddable returns the round in play and the pairing (0-based) player i
// may bid for at now, or why he may not (*ErrBid).
func (t *Tournament) biddable(i int, now time.Time) (*Round, int, error) {
	r := t.Current()
	switch {
	case t.Sides != SidesBids:
		return nil, -1, bidErr(rules.M("tournament %s decides sides by the rule %q, not by bids", t.ID, SidesText(t.Sides)))
	case t.Status == Over:
		return nil, -1, bidErr(rules.M("tournament %s is over", t.ID))
	case r == nil:
		return nil, -1, bidErr(rules.M("no round is paired yet"))
	case t.Version >= 2 && i >= 0 && i < len(t.Entrants) && t.Entrants[i].Withdrawn:
		// A log of before replays as it was written, with the bids a
		// withdrawn player sent.
		return nil, -1, bidErr(rules.M("you have withdrawn from tournament %s", t.ID))
	}
	k := -1
	for j, p := range r.Pairings {
		if p.Of(i) >= 0 && !p.Bye() {
			k = j
		}
	}
	if k < 0 {
		return nil, -1, bidErr(rules.M("you have no game in round %d to bid for", r.N))
	}
	p := r.Pairings[k]
	switch {
	case p.Unmade():
		return nil, -1, bidErr(rules.M("your round %d pairing has no game: %s withdrew", r.N, t.Entrants[p.Opponent(i)].Name))
	case p.Sided():
		return nil, -1, bidErr(rules.M("the sides of your round %d game are decided already: you play the %s side", r.N, p.SideOf(i)))
	case !now.Before(r.BidsDue):
		return nil, -1, bidErr(rules.M("the bids of round %d closed at %s", r.N, adjudicator.FormatTime(r.BidsDue)))
	case p.in(p.Of(i)):
		return nil, -1, bidErr(rules.M("your bid is in already, and sealed: it cannot be changed"))
	}
	return r, k, nil
}

// in reports whether the bid of the pairing's A (j 0) or B (j 1) is in,
// known or sealed.
func (p *Pairing) in(j int) bool { return p.Bids[j] != nil || p.Sealed[j] }

// takeBid logs player i's bid b, salted already, for pairing k of round r,
// and resolves the sides when both bids are in.
func (t *Tournament) takeBid(r *Round, k, i int, b Bid, now time.Time) ([]Record, error) {
	p := r.Pairings[k]
	b.Time = now
	p.Bids[p.Of(i)] = &b
	return t.bidLogged(r, k, i, bidHash(t.ID, r.N, i, b), now)
}

// bidLogged logs the bid record of player i, whose bid of pairing k of
// round r is in, and resolves the sides when both bids are in.
func (t *Tournament) bidLogged(r *Round, k, i int, hash string, now time.Time) ([]Record, error) {
	p := r.Pairings[k]
	out := []Record{t.record(Record{Kind: KindBid, Time: now, Round: r.N, Pairing: k + 1, Player: i + 1, BidHash: hash})}
	if p.in(0) && p.in(1) {
		rec, err := t.resolve(r, k, now)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// bidHash seals a bid in the log: the SHA-256 of the tournament, round,
// player and bid with its salt, which the revealed bid must match.
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

// bidSalt is the salt of player i's bid in round n:
//
//	hex(HMAC-SHA256(seed, "titm tournament bid salt v1" || lp(id) || round || player)[:16])
//
// with the round and the 1-based player as 4-byte big-endian numbers. It
// is secret while the seed is, and the same whenever the act is done.
func (t *Tournament) bidSalt(n, i int) string {
	m := hmac.New(sha256.New, t.secret)
	m.Write([]byte("titm tournament bid salt v1"))
	var x [4]byte
	binary.BigEndian.PutUint32(x[:], uint32(len(t.ID)))
	m.Write(x[:])
	m.Write([]byte(t.ID))
	for _, v := range []int{n, i + 1} {
		binary.BigEndian.PutUint32(x[:], uint32(v))
		m.Write(x[:])
	}
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// CloseBids resolves, once the bids of the round in play are due, the
// sides of every pairing still waiting, with the bids that came in: not a
// pairing a withdrawal ended (Withdraw).
func (t *Tournament) CloseBids(now time.Time) ([]Record, error) {
	r := t.Current()
	if r == nil || t.Sides != SidesBids || now.Before(r.BidsDue) {
		return nil, nil
	}
	var out []Record
	for k, p := range r.Pairings {
		if p.Bye() || p.Sided() || p.Done {
			// A pairing ended by a withdrawal has no sides to decide.
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
		if !p.Bye() && !p.Sided() && !p.Done {
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
	if p.Sealed[0] || p.Sealed[1] {
		// Only the replay of an export has such a bid, and the log that
		// decided these sides would have revealed it.
		return Record{}, fmt.Errorf("the sides of pairing %d of round %d are decided from a bid the log never reveals", k+1, r.N)
	}
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
