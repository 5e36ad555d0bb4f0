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
	{KindCreated, "time", CheckedOrder, "nothing comes before the game's creation; the records after it may not be earlier"},
	{KindCreated, "engine", CheckedNone, "a version later than this titm's is refused, but an earlier one that replays the log alike cannot be told from the one the game was played with"},
	{KindJoined, "time", CheckedOrder, "a join derives nothing from its time; the start, made with the second join, has the same time"},
	{KindStanding, "time", CheckedOrder, "standing orders derive nothing from their time"},
	{KindPaused, "time", CheckedLater, "the time left when paused is given back on resuming: the resumed record's deadline tells a changed pause time"},
	{KindExtended, "time", CheckedOrder, "an extension moves the deadline by its length, whenever it is given"},
	{KindDrawOffered, "time", CheckedOrder, "an offer derives nothing from its time"},
	{KindDrawOffered, "side", CheckedNone, "either player may offer a draw at any time: the log is the only witness of who did"},
	{KindPaused, "reason", CheckedNone, "the director's words"},
	{KindResumed, "reason", CheckedNone, "the director's words"},
	{KindExtended, "reason", CheckedNone, "the director's words, or the player's"},
	{KindRolledBack, "reason", CheckedNone, "the director's words"},
	{KindAdjudicated, "reason", CheckedNone, "the tournament's words"},
	{"export", "german", CheckedNone, "the players' addresses are not in the log"},
	{"export", "allied", CheckedNone, "the players' addresses are not in the log"},
	{"export", "observers[]", CheckedNone, "the observers' addresses are not in the log"},
}
