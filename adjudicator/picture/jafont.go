package picture

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"sync"

	"golang.org/x/image/math/fixed"
)

// The Japanese glyphs: every character of the picture's Japanese texts
// that the Go fonts lack, rasterized from the M+ 1 fonts (SIL Open Font
// License 1.1: fonts/OFL.txt, docs/fonts.md) at the sizes of the faces
// that draw those texts, by internal/genglyphs. The file holds only those
// characters, some tens of kilobytes, instead of the megabytes of a whole
// Japanese font; TestJapaneseGlyphs fails when a text needs one it lacks.
//
//go:generate go run ./internal/genglyphs
//go:embed fonts/ja-glyphs.bin
var jaGlyphData []byte

// jaKey names a set of Japanese glyphs: the weight and the size in pixels
// of the faces that take their missing characters from it.
type jaKey struct {
	bold bool
	size int
}

var (
	jaOnce sync.Once
	jaSets map[jaKey]map[rune]*glyph
	jaErr  error
)

// jaGlyphs returns the Japanese glyphs of a weight and size, or nil if
// there are none: those of a face that draws no Japanese text.
func jaGlyphs(bold bool, size int) (map[rune]*glyph, error) {
	jaOnce.Do(func() {
		if jaSets, jaErr = decodeGlyphs(jaGlyphData); jaErr != nil {
			jaErr = fmt.Errorf("the embedded Japanese glyphs (fonts/ja-glyphs.bin): %w; make them again with go generate ./adjudicator/picture (docs/fonts.md)", jaErr)
		}
		if jaErr != nil {
			jaErr = fmt.Errorf("reading the Japanese glyphs: %w", jaErr)
		}
	})
	return jaSets[jaKey{bold, size}], jaErr
}

// decodeGlyphs reads the file genglyphs writes: "TGLY", then deflated:
// the count of sets, and for each its weight (1 for bold), size and count
// of glyphs, and for each glyph its rune, advance (26.6 fixed point), its
// mask's rectangle relative to the dot (x0, y0, x1, y1) and the mask's
// alpha values, row by row; little-endian.
func decodeGlyphs(data []byte) (map[jaKey]map[rune]*glyph, error) {
	if !bytes.HasPrefix(data, []byte("TGLY")) {
		return nil, errors.New("not a glyph file")
	}
	r := flate.NewReader(bytes.NewReader(data[4:]))
	defer r.Close()
	var n uint8
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, err
	}
	sets := map[jaKey]map[rune]*glyph{}
	for range n {
		var head struct {
			Bold, Size uint8
			N          uint16
		}
		if err := binary.Read(r, binary.LittleEndian, &head); err != nil {
			return nil, err
		}
		set := make(map[rune]*glyph, head.N)
		for range head.N {
			var g struct {
				R              uint32
				Advance        int32
				X0, Y0, X1, Y1 int16
			}
			if err := binary.Read(r, binary.LittleEndian, &g); err != nil {
				return nil, err
			}
			if g.X1 < g.X0 || g.Y1 < g.Y0 || int(g.X1-g.X0)*int(g.Y1-g.Y0) > 1<<16 {
				return nil, fmt.Errorf("glyph %U: a bad rectangle", rune(g.R))
			}
			a := image.NewAlpha(image.Rect(0, 0, int(g.X1-g.X0), int(g.Y1-g.Y0)))
			if _, err := io.ReadFull(r, a.Pix); err != nil {
				return nil, err
			}
			edges(a.Pix)
			set[rune(g.R)] = &glyph{
				mask:    a,
				rect:    image.Rect(int(g.X0), int(g.Y0), int(g.X1), int(g.Y1)),
				advance: fixed.Int26_6(g.Advance),
			}
		}
		sets[jaKey{head.Bold == 1, int(head.Size)}] = set
	}
	return sets, nil
}

// missingGlyphs are the characters drawn as '?' because no font had them:
// none, unless a text is not in the Japanese glyphs (run genglyphs).
// Tests read it.
var missingGlyphs struct {
	sync.Mutex
	runes map[rune]bool
}

func noteMissing(r rune) {
	missingGlyphs.Lock()
	if missingGlyphs.runes == nil {
		missingGlyphs.runes = map[rune]bool{}
	}
	missingGlyphs.runes[r] = true
	missingGlyphs.Unlock()
}
