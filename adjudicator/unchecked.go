package adjudicator

// What verify checks of a field it cannot check fully (Limit.Check).
const (
	// CheckedOrder: a time, checked only against the times of the records
	// around it: the act it records derives nothing from it.
	CheckedOrder = "order"
	// CheckedLater: a change fails at a later record, where what the
	// field seals or starts is revealed or used.
	CheckedLater = "later"
	// CheckedNone: the record is where the value comes from, and nothing
	// else in the log or the export says what it should be.
	CheckedNone = "none"
)

// A Limit is a field of a log's records, or of an export, that verify
// cannot check fully at its own record, and why. docs/verify.md lists the
// same, and the tamper suite consults this list: a change of a field it
// does not list must fail at its own record.
type Limit struct {
	Kind  string // the record's kind; "export" for the export's own fields
	Field string // the field's JSON name, its indices as []: dice[].roll
	Check string // CheckedOrder, CheckedLater or CheckedNone
	Why   string
}

// Unchecked are the fields of a game's export that verify cannot check
// fully.
var Unchecked = []Limit{
	{Kind: KindCreated, Field: "time", Check: CheckedOrder, Why: "nothing comes before the game's creation; the records after it may not be earlier"},
	{Kind: KindCreated, Field: "engine", Check: CheckedNone, Why: "a version later than this titm's is refused, but an earlier one that replays the log alike cannot be told from the one the game was played with"},
	{Kind: KindJoined, Field: "time", Check: CheckedOrder, Why: "a join derives nothing from its time; the start, made with the second join, has the same time"},
	{Kind: KindStanding, Field: "time", Check: CheckedOrder, Why: "standing orders derive nothing from their time"},
	{Kind: KindPaused, Field: "time", Check: CheckedLater, Why: "the time left when paused is given back on resuming: the resumed record's deadline tells a changed pause time"},
	{Kind: KindExtended, Field: "time", Check: CheckedOrder, Why: "an extension moves the deadline by its length, whenever it is given"},
	{Kind: KindDrawOffered, Field: "time", Check: CheckedOrder, Why: "an offer derives nothing from its time"},
	{Kind: KindDrawOffered, Field: "side", Check: CheckedNone, Why: "either player may offer a draw at any time: the log is the only witness of who did"},
	{Kind: KindPaused, Field: "reason", Check: CheckedNone, Why: "the director's words"},
	{Kind: KindResumed, Field: "reason", Check: CheckedNone, Why: "the director's words"},
	{Kind: KindExtended, Field: "reason", Check: CheckedNone, Why: "the director's words, or the player's"},
	{Kind: KindRolledBack, Field: "reason", Check: CheckedNone, Why: "the director's words"},
	{Kind: KindAdjudicated, Field: "reason", Check: CheckedNone, Why: "the tournament's words"},
	{Kind: "export", Field: "german", Check: CheckedNone, Why: "the players' addresses are not in the log"},
	{Kind: "export", Field: "allied", Check: CheckedNone, Why: "the players' addresses are not in the log"},
	{Kind: "export", Field: "observers[]", Check: CheckedNone, Why: "the observers' addresses are not in the log"},
}
