package tournament_test

import (
	"errors"
	"fmt"

	"titm/adjudicator/tournament"
)

// A tournament file read and checked: the settings, with what the file
// leaves out worked out; a file with problems gives every one with its
// line.
func ExampleParse() {
	s, err := tournament.Parse("cup.toml", []byte(`name = "Bastogne Cup"
director = "td@example.org"
scenario = "intro"
format = "round-robin"

[[player]]
name = "Anna"
address = "anna@example.org"

[[player]]
name = "Bert"
address = "bert@example.org"

[[player]]
name = "Clara"
address = "clara@example.org"
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.Format, s.Rounds, "rounds,", len(s.Players), "players, sides", s.Sides, "deadline", s.Deadline)

	_, err = tournament.Parse("cup.toml", []byte(`name = "Cup"
director = "td@example.org"
scenario = "intro"
format = "swiss"
rounds = 3

[[player]]
name = "Anna"
address = "anna@example.org"

[[player]]
name = "Bert"
address = "anna@example.org"
`), nil)
	var ps *tournament.Problems
	if errors.As(err, &ps) {
		fmt.Println(err)
	}
	// Output:
	// Bastogne Cup round-robin 3 rounds, 3 players, sides alternate deadline 72h0m0s
	// cup.toml:11: player "Bert" repeats the address of the player at line 7
	// cup.toml:5: rounds = 3 is impossible: 2 players can play at most 1 round without a rematch
}
