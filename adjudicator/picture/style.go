package picture

import (
	"fmt"
	"image/color"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"

	"titm/rules"
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// The colours. The German side is drawn in greys and blue, the Allied side
// in greens and browns, so that a glance tells the sides apart; within a
// side, each service of 4.12 has a colour of its own. Red is kept for what
// went wrong or happened just now: blown bridges, supply lost, battles.
var (
	paper     = rgb(0xf6, 0xf3, 0xea)
	panelBG   = rgb(0xec, 0xe8, 0xdc)
	ink       = rgb(0x1c, 0x1c, 0x1c)
	leaderInk = rgb(0x30, 0x30, 0x30)
	white     = rgb(0xff, 0xff, 0xff)
	frameInk  = rgb(0x8a, 0x82, 0x72)
	riverBlue = rgb(0x5b, 0x9b, 0xd5)
	riverText = rgb(0x2f, 0x6f, 0xaa)
	primary   = rgb(0x7a, 0x4e, 0x2d)
	secondary = rgb(0xb0, 0x96, 0x72)
	blownRed  = rgb(0xd0, 0x10, 0x10)
	battleRed = rgb(0xe0, 0x20, 0x20)
	moveInk   = rgb(0x9c, 0x27, 0xb0)
	vpGold    = rgb(0xf0, 0xb4, 0x00)
	movedMark = rgb(0xff, 0xd5, 0x00)
	lostInk   = rgb(0xb8, 0xb4, 0xaa) // an eliminated unit's counter, crossed out in red
	trench    = rgb(0x8b, 0x4a, 0x12)
	oosRed    = rgb(0xd6, 0x28, 0x28)
	titleBG   = rgb(0x2e, 0x33, 0x3a)
	titleSub  = rgb(0xd8, 0xdc, 0xe2)

	// Control (12.22): the tint of an area's ground and its town's dot. An
	// area neither side controls is paper; the ground off the scenario's map
	// is darker, and a thin line runs between the areas.
	germanTint = rgb(0xc9, 0xd3, 0xe4)
	alliedTint = rgb(0xd2, 0xe5, 0xbc)
	offMap     = rgb(0xdc, 0xd8, 0xcd)
	areaEdge   = rgb(0xa3, 0x9b, 0x8a)
	germanDot  = rgb(0x3d, 0x4e, 0x66)

	// The boundary of a scenario on part of the map (3.2), in the colour
	// the rulebook's map draws it (rules.Scenario.Boundary).
	boundaryGreen = rgb(0x1f, 0x9d, 0x3a)
	boundaryRed   = rgb(0xd0, 0x21, 0x2b)
	alliedDot     = rgb(0x3f, 0x7d, 0x23)
	neutralDot    = rgb(0xff, 0xff, 0xff)
)

// styleColours lists every colour drawn flat, which the palette of the PNG
// keeps exactly.
func styleColours() []color.RGBA {
	cs := []color.RGBA{
		paper, panelBG, ink, leaderInk, white, frameInk, riverBlue, riverText, primary, secondary,
		blownRed, battleRed, moveInk, vpGold, movedMark, trench, oosRed,
		germanTint, alliedTint, offMap, areaEdge, boundaryGreen, boundaryRed, germanDot, alliedDot, neutralDot, titleBG, titleSub, lostInk,
	}
	for _, s := range services {
		cs = append(cs, s.style.bg, s.style.fg)
	}
	return cs
}

// edgeShades lists the shades the edges of what a scenario's start never
// shows take over each ground, each edge in its four quarters (see edge):
// the moves' arrows and the battles' marks. The palette is counted from
// the picture of the start (see paletteFor), where their edges would take
// the nearest shade it has, some of them far off.
func edgeShades() []color.RGBA {
	var cs []color.RGBA
	for _, s := range []color.RGBA{moveInk, battleRed} {
		for _, d := range []color.RGBA{paper, germanTint, alliedTint, offMap} {
			for q := range 4 {
				k := laidOver(key(d), key(s), edge(uint8(q<<6)))
				cs = append(cs, rgb(uint8(k), uint8(k>>8), uint8(k>>16)))
			}
		}
	}
	return cs
}

// serviceStyle is how a service's counters look (4.12). The legend names
// the colours (services[].legend).
type serviceStyle struct {
	bg, fg color.RGBA
}

var services = []struct {
	s      rules.Service
	style  serviceStyle
	sample string        // a unit of the service, as the legend shows it
	legend rules.Message // the service and its colour, as 4.12 names them
}{
	// 4.12: SS black, Heer grey, Luftwaffe light blue; US green, British
	// khaki, the Allied garrison units (Norwegian and Belgian) dark blue.
	{rules.SS, serviceStyle{rgb(0x14, 0x14, 0x14), rgb(0xff, 0xff, 0xff)}, "1SS/1", rules.M("German SS: black")},
	{rules.Heer, serviceStyle{rgb(0x7c, 0x7c, 0x7c), rgb(0xff, 0xff, 0xff)}, "116/60", rules.M("German Heer (army): grey")},
	{rules.Luftwaffe, serviceStyle{rgb(0x8c, 0xc4, 0xf0), rgb(0x0b, 0x24, 0x3c)}, "3FJ/5", rules.M("German Luftwaffe: light blue")},
	{rules.US, serviceStyle{rgb(0x3f, 0x6e, 0x1e), rgb(0xff, 0xff, 0xff)}, "28/110", rules.M("US: green")},
	{rules.British, serviceStyle{rgb(0xc3, 0xa8, 0x6b), rgb(0x1c, 0x1c, 0x1c)}, "51/153", rules.M("British: khaki")},
	{rules.Garrison, serviceStyle{rgb(0x1b, 0x2f, 0x6b), rgb(0xff, 0xff, 0xff)}, "NO/99", rules.M("Allied garrison (Norwegian, Belgian): dark blue")},
}

func styleOf(u *rules.Unit) serviceStyle {
	for _, s := range services {
		if s.s == u.Service {
			return s.style
		}
	}
	// A unit of a file of one's own with no service: its side's main one.
	if u.Side == rules.German {
		return services[1].style
	}
	return services[3].style
}

func controlTint(s rules.Side) (color.RGBA, bool) {
	switch s {
	case rules.German:
		return germanTint, true
	case rules.Allied:
		return alliedTint, true
	}
	return color.RGBA{}, false
}

func controlDot(s rules.Side) color.RGBA {
	switch s {
	case rules.German:
		return germanDot
	case rules.Allied:
		return alliedDot
	}
	return neutralDot
}

// The Go fonts, parsed once.
var (
	fontsOnce sync.Once
	fontsErr  error
	fonts     struct{ regular, medium, bold, italic *opentype.Font }
)

func parseFonts() error {
	fontsOnce.Do(func() {
		for _, f := range []struct {
			dst **opentype.Font
			ttf []byte
		}{
			{&fonts.regular, goregular.TTF}, {&fonts.medium, gomedium.TTF},
			{&fonts.bold, gobold.TTF}, {&fonts.italic, goitalic.TTF},
		} {
			if *f.dst, fontsErr = opentype.Parse(f.ttf); fontsErr != nil {
				fontsErr = fmt.Errorf("parsing the Go fonts: %w", fontsErr)
				return
			}
		}
	})
	return fontsErr
}

// faces are the type sizes of one render. The smallest text is 11 pixels,
// to be read at 100 % on a laptop screen. The texts in the reader's
// language are drawn with small, smallBold, title and subtitle, whose
// sizes the Japanese glyphs are made for (internal/genglyphs); the others
// draw place names, ids and numbers, in Latin letters.
type faces struct {
	label, labelBold *face // area names and numbers
	unit             *face // counters
	small            *face // legend, zone names
	smallBold        *face
	river            *face
	zone             *face // zone letters
	title, subtitle  *face
}

// faceSets keeps sets of faces, with the glyphs they rasterized, for the
// next render: a face serves one render at a time.
var faceSets sync.Pool

// getFaces returns a set of faces from faceSets, or a new one; put it back
// when done.
func getFaces() (*faces, error) {
	if fs, ok := faceSets.Get().(*faces); ok {
		return fs, nil
	}
	return newFaces()
}

func newFaces() (*faces, error) {
	if err := parseFonts(); err != nil {
		return nil, err
	}
	mk := func(f *opentype.Font, size float64) (*face, error) {
		ff, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, fmt.Errorf("making a %.0f px face: %w", size, err)
		}
		// The regular and bold faces draw the characters the Go fonts
		// lack, Japanese ones, from the glyphs of their weight and size.
		var ja map[rune]*glyph
		if f == fonts.regular || f == fonts.bold {
			if ja, err = jaGlyphs(f == fonts.bold, int(size)); err != nil {
				return nil, err
			}
		}
		return newFace(ff, ja), nil
	}
	var fs faces
	for _, f := range []struct {
		dst  **face
		font *opentype.Font
		size float64
	}{
		{&fs.label, fonts.regular, 12}, {&fs.labelBold, fonts.bold, 12},
		{&fs.unit, fonts.medium, 12},
		{&fs.small, fonts.regular, 12}, {&fs.smallBold, fonts.bold, 12},
		{&fs.river, fonts.italic, 12},
		{&fs.zone, fonts.bold, 16},
		{&fs.title, fonts.bold, 20}, {&fs.subtitle, fonts.regular, 13},
	} {
		var err error
		if *f.dst, err = mk(f.font, f.size); err != nil {
			return nil, err
		}
	}
	return &fs, nil
}

// boundaryColour is the colour of scenario s's boundary.
func boundaryColour(s *rules.Scenario) color.RGBA {
	switch s.Boundary {
	case "green":
		return boundaryGreen
	case "red":
		return boundaryRed
	}
	return ink
}
