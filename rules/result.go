package rules

import "fmt"

// The results the referee itself gives a game, beside a scenario's own
// (its victory conditions' levels and outcomes): the log keeps them in
// English, and a reader reads them in his language (ResultMessage).

// ConcededResult is the result of a game the side conceded.
func ConcededResult(side Side) string {
	return fmt.Sprintf("the %s player conceded: %s victory", side.Title(), side.Enemy().Title())
}

// ForfeitedResult is the result of a game the side forfeited.
func ForfeitedResult(side Side) string {
	return fmt.Sprintf("the %s player forfeits: %s victory", side.Title(), side.Enemy().Title())
}

// ConcededResultV1 is the result of a conceded game as adjudication
// version 1 wrote it, the sides in lower case: a replay of its log must
// make the same record.
func ConcededResultV1(side Side) string {
	return fmt.Sprintf("the %s player conceded: %s victory", side, side.Enemy())
}

// The draws' results.
const (
	DrawnByAgreement = "drawn by agreement"
	DrawnByDirector  = "drawn by the director"
)

// RefereeResults returns every result the referee itself gives a game:
// the draws, and each side's concession (in both forms) and forfeit.
func RefereeResults() []string {
	out := []string{DrawnByAgreement, DrawnByDirector}
	for _, side := range []Side{German, Allied} {
		out = append(out, ConcededResult(side), ConcededResultV1(side), ForfeitedResult(side))
	}
	return out
}

// ResultMessage returns a game's result, as the log keeps it in English, as
// a message for the reader's language: a result of the scenario's victory
// conditions ("Allied decisive victory", DataMessage), a concession, a
// forfeit or a draw; any other text as it is.
func ResultMessage(result string) Message {
	switch result {
	case DrawnByAgreement:
		return M("drawn by agreement")
	case DrawnByDirector:
		return M("drawn by the director")
	}
	for _, side := range []Side{German, Allied} {
		switch result {
		case ConcededResult(side):
			return M("the %s player conceded: %s victory", side, side.Enemy())
		case ConcededResultV1(side):
			return M("the %s player conceded: %s victory", sideWord(side), sideWord(side.Enemy()))
		case ForfeitedResult(side):
			return M("the %s player forfeits: %s victory", side, side.Enemy())
		}
	}
	return DataMessage(result)
}

// sideWord names a side as adjudication version 1 wrote it in a result, in
// lower case: "german".
func sideWord(s Side) Message {
	if s == German {
		return M("german")
	}
	return M("allied")
}
