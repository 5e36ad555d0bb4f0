package tournament_test

import (
	"os"
	"regexp"
	"testing"

	"titm/adjudicator/tournament"
	"titm/rules/scenarios"
)

// tomlBlock is a fenced TOML block of a Markdown page.
var tomlBlock = regexp.MustCompile("(?ms)^```toml\n(.*?)^```")

// Every tournament file docs/tournaments.md shows is one titm accepts, so
// that a director who starts from the page starts from a file that works.
func TestDocsTournamentFiles(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile("../../docs/tournaments.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := tomlBlock.FindAllSubmatch(page, -1)
	if len(blocks) == 0 {
		t.Fatal("docs/tournaments.md shows no ```toml block")
	}
	known := func(name string) error { _, err := scenarios.Load(name); return err }
	for i, b := range blocks {
		s, err := tournament.Parse("docs/tournaments.md", b[1], known)
		if err != nil {
			t.Errorf("the TOML block %d of docs/tournaments.md is refused:\n%v", i+1, err)
			continue
		}
		if s.Name == "" || len(s.Players) == 0 {
			t.Errorf("the TOML block %d of docs/tournaments.md: a tournament with no name or no players: %+v", i+1, s)
		}
	}
}
