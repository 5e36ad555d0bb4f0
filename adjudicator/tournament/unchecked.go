package tournament

import "titm/adjudicator"

// Unchecked are the fields of a tournament's export that Verify cannot
// check fully at their own record, and why (adjudicator.Limit).
// docs/verify.md lists the same, and the tamper suite consults this list:
// a change of a field it does not list must fail at its own record.
var Unchecked = []adjudicator.Limit{
	{Kind: KindCreated, Field: "time", Check: adjudicator.CheckedOrder, Why: "nothing comes before the tournament's creation; the records after it may not be earlier"},
	{Kind: KindCreated, Field: "settings.name", Check: adjudicator.CheckedNone, Why: "the tournament's name is in no other record"},
	{Kind: KindCreated, Field: "settings.director", Check: adjudicator.CheckedNone, Why: "the director's address is in no other record: his acts are logged, not signed"},
	{Kind: KindCreated, Field: "settings.deadline", Check: adjudicator.CheckedLater, Why: "checked against each game's time per impulse, at the game's record"},
	{Kind: KindCreated, Field: "settings.bid_deadline", Check: adjudicator.CheckedNone, Why: "the bids must come before it and the sides close after it; within those bounds it is not known"},
	{Kind: KindCreated, Field: "settings.max_extensions", Check: adjudicator.CheckedNone, Why: "the referee's limit on extensions; the games' logs do not state it"},
	{Kind: KindCreated, Field: "settings.forfeit_after", Check: adjudicator.CheckedNone, Why: "the referee's limit on missed deadlines; the forfeit it gives is logged as the director's decision, checked"},
	{Kind: KindCreated, Field: "settings.format", Check: adjudicator.CheckedLater, Why: "what the settings decide is checked where it is decided: the pairings"},
	{Kind: KindCreated, Field: "settings.rounds", Check: adjudicator.CheckedLater, Why: "checked where the log pairs a round, or ends the tournament"},
	{Kind: KindCreated, Field: "settings.scenarios[]", Check: adjudicator.CheckedLater, Why: "checked at each round's pairing, which names its scenario"},
	{Kind: KindCreated, Field: "settings.sides", Check: adjudicator.CheckedLater, Why: "checked where the sides are decided"},
	{Kind: KindCreated, Field: "settings.tiebreaks[]", Check: adjudicator.CheckedNone, Why: "the tie-breaks order the standings, which no record holds; a Swiss pairing they change is checked"},
	{Kind: KindCreated, Field: "settings.players[].name", Check: adjudicator.CheckedNone, Why: "a name is checked where a record's text or a die's purpose uses it; a player whose name no record uses is not"},
	{Kind: KindCreated, Field: "settings.players[].address", Check: adjudicator.CheckedLater, Why: "checked against the players of each game, at the game's record"},
	{Kind: KindPaired, Field: "time", Check: adjudicator.CheckedOrder, Why: "the bids' deadline is reckoned from it; bids and sides are checked against that"},
	{Kind: KindBid, Field: "time", Check: adjudicator.CheckedOrder, Why: "a bid must come before the bids close; the time in the bid revealed is checked against the seal"},
	{Kind: KindBid, Field: "player", Check: adjudicator.CheckedLater, Why: "who bid is sealed with the bid: checked where the sides record (or the result of a pairing a withdrawal ended) reveals it"},
	{Kind: KindBid, Field: "bid_hash", Check: adjudicator.CheckedLater, Why: "the seal: checked where the sides record (or the result of a pairing a withdrawal ended) reveals the bid"},
	{Kind: KindSides, Field: "time", Check: adjudicator.CheckedOrder, Why: "sides decided when the bids close are decided at the referee's next tick after their deadline"},
	{Kind: KindReplaced, Field: "time", Check: adjudicator.CheckedOrder, Why: "the director's act derives nothing from its time"},
	{Kind: KindReplaced, Field: "name", Check: adjudicator.CheckedNone, Why: "the director's choice; checked where a later record's text uses it"},
	{Kind: KindReplaced, Field: "player", Check: adjudicator.CheckedLater, Why: "checked against the games in play the new player took over, and later texts"},
	{Kind: KindReplaced, Field: "text", Check: adjudicator.CheckedNone, Why: "the director's words"},
	{Kind: KindWithdrawn, Field: "time", Check: adjudicator.CheckedOrder, Why: "checked against the game his withdrawal ended, if he had one in play"},
	{Kind: KindWithdrawn, Field: "text", Check: adjudicator.CheckedNone, Why: "checked against the game his withdrawal ended, if he had one in play; otherwise the director's words"},
	{Kind: KindPaused, Field: "time", Check: adjudicator.CheckedOrder, Why: "the director's act derives nothing from its time"},
	{Kind: KindPaused, Field: "text", Check: adjudicator.CheckedNone, Why: "the director's words"},
	{Kind: KindResumed, Field: "time", Check: adjudicator.CheckedOrder, Why: "the director's act derives nothing from its time"},
	{Kind: KindResumed, Field: "text", Check: adjudicator.CheckedNone, Why: "the director's words"},
}
