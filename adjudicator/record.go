package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"titm/rules"
)

// The kinds of log record.
const (
	KindCreated     = "created"      // the game was made; its commitment is published
	KindJoined      = "joined"       // a player joined, with his seed
	KindStarted     = "started"      // both players joined; play begins
	KindStanding    = "standing"     // a side's standing orders changed (B1, B3)
	KindImpulse     = "impulse"      // an impulse was played: its orders, every die, the outcome
	KindPaused      = "paused"       // by the director
	KindResumed     = "resumed"      // by the director
	KindExtended    = "extended"     // the deadline moved, by the director or at a player's request
	KindRolledBack  = "rolled-back"  // the director returned the game to an earlier impulse
	KindConceded    = "conceded"     // a player conceded
	KindDrawOffered = "draw-offered" // a player offered a draw
	KindDrawAgreed  = "draw-agreed"  // the other accepted it
	KindFinished    = "finished"     // the game is over; the secret seed is revealed
	KindAdjudicated = "adjudicated"  // a tournament ended the game: a forfeit, or a draw by the director
)

// A Record is one entry of a game's append-only log. Each carries the hash
// of the one before it, so a log cannot be changed without changing the hash
// of its last record, which every report prints: both players hold receipts.
// What a record holds beyond its kind, time and hashes depends on the kind;
// fields that do not apply are empty.
type Record struct {
	Seq  int       `json:"seq"`
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`

	Side    rules.Side `json:"side,omitempty"`
	Impulse string     `json:"impulse,omitempty"` // the impulse played, or rolled back to
	Text    string     `json:"text,omitempty"`    // the orders as accepted, canonical, without the TOKEN line
	Reason  string     `json:"reason,omitempty"`  // why the director acted, or why an impulse was passed
	Seed    string     `json:"seed,omitempty"`    // joined: the player's seed; finished: the game's secret seed, in hex

	Scenario   string `json:"scenario,omitempty"`   // created: the scenario's name
	Engine     int    `json:"engine,omitempty"`     // created: rules.Version, the adjudication it was played with
	Data       string `json:"data,omitempty"`       // created: FilesHash of the scenario's files
	Commitment string `json:"commitment,omitempty"` // created: hex SHA-256 of the secret seed
	Deadline   string `json:"deadline,omitempty"`   // created: the time per impulse; extended: by how much
	// AddressCommitments are, in the created record, the commitments to
	// the players' and observers' addresses (AddressCommitment): German,
	// Allied, then each observer. A log from before holds none.
	AddressCommitments []string `json:"address_commitments,omitempty"`

	Dice   []Roll    `json:"dice,omitempty"`   // impulse: every die, in order
	Events []string  `json:"events,omitempty"` // impulse: what happened, in order
	State  string    `json:"state,omitempty"`  // StateHash of the position after the record
	Due    time.Time `json:"due,omitzero"`     // the deadline of the impulse in play after the record
	Result string    `json:"result,omitempty"` // finished: the result

	Prev string `json:"prev"` // the hash of the record before, "" for the first
	Hash string `json:"hash"` // RecordHash of this record
}

// RecordHash returns the hash of a record: hex SHA-256 of its JSON with the
// hash field empty. The JSON of a record is the same on every machine (fields
// in declaration order, times in RFC 3339), so anyone can recompute it.
func RecordHash(r Record) string {
	r.Hash = ""
	data, err := json.Marshal(r)
	if err != nil {
		// A Record is plain data; marshalling it cannot fail.
		panic("adjudicator: marshalling a record: " + err.Error())
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// record completes r as the game's next record and moves the head to it.
func (g *Game) record(r Record) Record {
	r.Seq = g.Log
	r.Prev = g.Head
	r.Hash = RecordHash(r)
	g.Log++
	g.Head = r.Hash
	return r
}
