package rules

import "strings"

// The names the rules give a player inside their messages, each a message
// of its own so that a reader gets it in his language: the unit types, the
// places, the scenarios' titles and results. Unit ids, area numbers and
// names and zone letters stay as they are written.

// Text names the type as the rules' texts do: armor, engineer, mech,
// mot, infantry (4.11).
func (t UnitType) Text() Message {
	switch t {
	case Armor:
		return M("armor")
	case Engineer:
		return M("engineer")
	case Mech:
		return M("mech")
	case Mot:
		return M("mot")
	case Infantry:
		return M("infantry")
	}
	return Plain(string(t))
}

// PlaceMessage names a place as PlaceName does, "Bastogne (84)" or "zone
// G", as a message.
func (m *Map) PlaceMessage(p Place) Message {
	if p.IsZone() {
		return M("zone %s", p.Zone)
	}
	return Plain(m.PlaceName(p))
}

// TitleMessage returns the scenario's title as a message (DataMessage).
func (s *Scenario) TitleMessage() Message { return DataMessage(s.Title) }

// DataMessage returns a text of the scenarios' data, a title or a result
// ("Allied decisive victory"), as a message whose key is the text: the
// catalogs give the shipped scenarios' texts in the reader's language
// (scenarios.toml), and any other text, of a scenario file of one's own,
// reads as it is written.
func DataMessage(s string) Message {
	if strings.Contains(s, "%") {
		return Plain(s) // not a catalog's key
	}
	return Message{Key: s}
}

// sideUnit says that a unit is the other side's, to a player of side own
// (4.12).
func sideUnit(id string, of, own Side) Message {
	if of == German {
		return M("%s is a German unit: you command the %s units", id, own)
	}
	return M("%s is an Allied unit: you command the %s units", id, own)
}
