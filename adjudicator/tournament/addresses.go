package tournament

import (
	"fmt"
	"maps"
	"slices"

	"titm/adjudicator"
)

// addresses returns every player's address the tournament has known: the
// file's, and the entrants' now and before.
func (t *Tournament) addresses() []string {
	var as []string
	for _, p := range t.Players {
		as = append(as, p.Address)
	}
	for _, e := range t.Entrants {
		as = append(as, e.Address)
		as = append(as, e.Before...)
	}
	return as
}

// logCommitments returns the address commitments of a log, in order: the
// director's and the players' of its created record, then those of its
// replaced records.
func logCommitments(log []Record) []string {
	var cs []string
	for _, r := range log {
		switch {
		case r.Kind == KindCreated && r.Settings != nil:
			cs = append(cs, r.Settings.DirectorCommitment)
			for _, p := range r.Settings.Players {
				cs = append(cs, p.Commitment)
			}
		case r.Kind == KindReplaced:
			cs = append(cs, r.AddressCommitment)
		}
	}
	return cs
}

// Public returns the export to publish: without the addresses and their
// salt, with its games' public exports. A tournament made before logs
// committed to addresses has none: its records hold them.
func (x *Export) Public() (*Export, error) {
	if len(x.Records) > 0 && x.Records[0].Settings != nil && !x.Records[0].Settings.Committed() {
		return nil, fmt.Errorf("tournament %s was made before its log committed to addresses: its records hold them, and it has no public export", x.ID)
	}
	c := *x
	c.Salt, c.Addresses = "", nil
	c.Games = make([]*adjudicator.Export, len(x.Games))
	for i, g := range x.Games {
		c.Games[i] = g.Public()
	}
	return &c, nil
}

// checkCommitments checks the addresses of the log against the export: in
// a log that commits to them, each commitment of the log has its address
// in the full export (each hashing to it under the salt, and none other
// given: checkGivenAddresses), or the public export gives neither salt
// nor address; in a log
// from before, which holds them, the export gives neither. The replayed
// tournament t gets the director's and the players' addresses from the
// full export, so that the replay of a replacement checks the new address
// as the referee did.
func checkCommitments(x *Export, t *Tournament, v *Verified) error {
	s := t.Settings
	if !s.Committed() {
		return checkUncommitted(x, s)
	}
	if err := checkCommittedLog(x, s); err != nil {
		return err
	}
	cs := logCommitments(x.Records)
	v.Committed = len(cs)
	if x.Salt == "" && x.Addresses == nil {
		return nil // the public export
	}
	if err := adjudicator.CheckAddressSalt(x.Salt); err != nil {
		return bad(-1, "address_salt", "%v", err)
	}
	// The export's own table first: an address that does not hash to the
	// commitment it is given for is the table's fault, not a record's.
	for _, c := range slices.Sorted(maps.Keys(x.Addresses)) {
		if a, got := x.Addresses[c], adjudicator.AddressCommitment(x.Salt, x.Addresses[c]); got != c {
			return bad(-1, "addresses", "the export gives %q as the address committed to as %s, but it hashes to %s", a, c, got)
		}
	}
	if err := checkGivenCommitments(x); err != nil {
		return err
	}
	t.Director = x.Addresses[s.DirectorCommitment]
	for i := range t.Players {
		t.Players[i].Address = x.Addresses[t.Players[i].Commitment]
	}
	v.Addresses = len(cs)
	return nil
}

// checkUncommitted checks that a log from before commitments, which holds
// the addresses, has none, and that its export gives none either.
func checkUncommitted(x *Export, s Settings) error {
	for i, p := range s.Players {
		if p.Commitment != "" {
			return bad(0, "settings", "player %d has a commitment to his address, but the director none: a log commits to all the addresses or to none", i+1)
		}
	}
	for i, r := range x.Records {
		if r.AddressCommitment != "" {
			return bad(i, "address_commitment", "a commitment to an address in a log that holds the addresses")
		}
	}
	if x.Salt != "" || x.Addresses != nil {
		return bad(-1, "address_salt", "the export gives a salt and addresses by their commitments, but the log commits to no address")
	}
	return nil
}

// checkCommittedLog checks that a log which commits to the addresses holds
// none of them, and a commitment for each.
func checkCommittedLog(x *Export, s Settings) error {
	if s.Director != "" {
		return bad(0, "settings", "the created record holds the director's address beside its commitment")
	}
	for i, p := range s.Players {
		if p.Address != "" || p.Commitment == "" {
			return bad(0, "settings", "player %d has an address in the created record, or no commitment to it: a log commits to all the addresses or to none", i+1)
		}
	}
	for i, r := range x.Records {
		if r.Kind == KindReplaced && (r.Address != "" || r.AddressCommitment == "") {
			return bad(i, "address_commitment", "the replaced record holds the new player's address, or no commitment to it")
		}
	}
	return nil
}

// checkGivenCommitments checks that the full export gives the address of
// every commitment of the log. One it does not give is named at its
// record: a commitment changed there, the chain rebuilt, shows so.
func checkGivenCommitments(x *Export) error {
	for i, r := range x.Records {
		switch {
		case r.Kind == KindCreated && r.Settings != nil:
			if _, ok := x.Addresses[r.Settings.DirectorCommitment]; !ok {
				return bad(i, "settings.director_commitment", "the log commits to the director's address as %s, which the export does not give", r.Settings.DirectorCommitment)
			}
			for k, p := range r.Settings.Players {
				if _, ok := x.Addresses[p.Commitment]; !ok {
					return bad(i, fmt.Sprintf("settings.players[%d].commitment", k), "the log commits to player %d's address as %s, which the export does not give", k+1, p.Commitment)
				}
			}
		case r.Kind == KindReplaced:
			if _, ok := x.Addresses[r.AddressCommitment]; !ok {
				return bad(i, "address_commitment", "the log commits to the new player's address as %s, which the export does not give", r.AddressCommitment)
			}
		}
	}
	return nil
}

// checkGivenAddresses checks that each address a full export gives is one
// the log commits to. It runs after the
// replay: a record whose commitment is gone (its kind changed, say) is
// named by the replay, at that record, rather than here, where only the
// export's table is known.
func checkGivenAddresses(x *Export) error {
	if x.Salt == "" && x.Addresses == nil {
		return nil
	}
	cs := logCommitments(x.Records)
	for _, c := range slices.Sorted(maps.Keys(x.Addresses)) {
		if a := x.Addresses[c]; !slices.Contains(cs, c) {
			return bad(-1, "addresses", "the export gives the address %q, which the log does not commit to", a)
		}
	}
	return nil
}

// checkPlayers checks that the game of a game record, g, is played by the
// pairing's players: its log commits, with the tournament's salt, to the
// addresses the German and the Allied entrant have when it is made. So
// even the public export shows who played each game. A game not in the
// export (VerifyLog) is not checked, nor the games of a tournament whose
// log holds the addresses.
func (t *Tournament) checkPlayers(p *Pairing, x *Export, g Record) error {
	if !t.Committed() || !p.Sided() {
		return nil
	}
	for _, gx := range x.Games {
		if gx.ID != g.Game || len(gx.Records) == 0 {
			continue
		}
		cs := gx.Records[0].AddressCommitments
		for k, i := range []int{p.German, p.Opponent(p.German)} {
			if k >= len(cs) || cs[k] != t.Entrants[i].Commitment {
				side := []string{"German", "Allied"}[k]
				return bad(g.Seq, "game", "game %s's log does not commit to the address of %s, whom the pairing gives its %s side, with the tournament's salt", g.Game, t.Entrants[i].Name, side)
			}
		}
	}
	return nil
}
