// Package jatexts gathers every text the map picture may draw in
// Japanese: what genglyphs makes glyphs for, and what the picture's tests
// check it has glyphs for. One list for both, so that a text the picture
// draws cannot be left out of the glyphs.
package jatexts

import (
	"fmt"

	"github.com/BurntSushi/toml"

	"titm/adjudicator/lang"
	"titm/rules"
	"titm/rules/scenarios"
)

// Texts returns, sorted as read, the texts of the picture's Japanese
// catalog (the file at catalog, every case of a plural table), the sides'
// names, the scenarios' titles and results, and the results a game may
// end with besides (a concession, a forfeit, a draw: adjudicator's
// ResultMessage), which the title line of a finished game names.
func Texts(catalog string) ([]string, error) {
	var raw map[string]any
	if _, err := toml.DecodeFile(catalog, &raw); err != nil {
		return nil, fmt.Errorf("reading the picture's catalog %s: %w", catalog, err)
	}
	var texts []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			texts = append(texts, v)
		case map[string]any:
			for _, w := range v {
				walk(w)
			}
		}
	}
	walk(raw)
	ja := lang.For(lang.Japanese)
	if err := lang.Err(); err != nil {
		return nil, err
	}
	texts = append(texts, ja.Side(rules.German), ja.Side(rules.Allied))
	for _, n := range scenarios.Names {
		s, err := scenarios.Load(n)
		if err != nil {
			return nil, err
		}
		texts = append(texts, ja.Data(s.Title))
		for _, l := range s.Victory.Levels {
			texts = append(texts, ja.Data(l.Result))
		}
		for _, o := range s.Victory.Outcomes {
			texts = append(texts, ja.Data(o.Result))
		}
	}
	for _, r := range rules.RefereeResults() {
		texts = append(texts, ja.Text(rules.ResultMessage(r)))
	}
	return texts, nil
}
