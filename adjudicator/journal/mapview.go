package journal

import (
	_ "embed"
	"html/template"
)

// mapScript zooms and pans the map on the game's and the replay's pages.
//
//go:embed templates/mapview.js
var mapScript string

// mapData is the map as a page shows it (templates/map.html): the picture
// at full resolution in a frame the script zooms and pans, which without
// the script scrolls over it.
type mapData struct {
	Game    string
	Picture pictureRef
	Marked  bool // the picture marks an impulse's moves and battles
	Script  template.JS
}

// Map is the game's page's map: the position now, drawn as the last
// impulse left it, with its moves and battles marked.
func (v *gameView) Map() mapData {
	return mapData{Game: v.ID, Picture: v.Picture, Marked: !v.start, Script: template.JS(mapScript)}
}

// Map is the replay's map: the position after the step's impulse, its
// moves and battles marked.
func (d replayData) Map() mapData {
	return mapData{Game: d.Game.ID, Picture: d.Picture, Marked: true, Script: template.JS(mapScript)}
}
