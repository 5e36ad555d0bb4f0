// Command genglyphs writes the Japanese glyphs the map picture draws
// (adjudicator/picture/fonts/ja-glyphs.bin), rasterized from the M+ 1
// fonts of Debian's fonts-mplus package (SIL Open Font License 1.1, see
// fonts/OFL.txt and docs/fonts.md).
//
// The picture draws Latin text with the Go fonts; a character they lack
// is taken from these glyphs. A whole Japanese font would add megabytes to
// the binary, and the picture needs only the characters of its Japanese
// texts at four sizes: so the glyphs are those of every text of
// adjudicator/lang/catalog/ja/picture.toml, the sides' names and the
// Japanese scenario titles and results the catalogs give, rasterized once
// here at the sizes the picture's faces use, and kept as alpha masks.
//
// Run it after changing ja/picture.toml or the picture's type sizes, from
// adjudicator/picture:
//
//	apt-get install fonts-mplus
//	go generate ./adjudicator/picture    (or: go run ./internal/genglyphs)
//
// TestJapaneseGlyphs fails while a Japanese text needs a glyph the file
// lacks. The output depends only on the texts and the fonts: the same
// inputs give the same bytes.
package main

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"log"
	"os"
	"slices"
	"titm/adjudicator/picture/internal/jatexts"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// sets are the faces of the picture that draw Japanese text (see
// picture.newFaces): the legend (12 px, its headings bold), the title
// (20 px bold) and the line under it (13 px).
var sets = []struct {
	bold bool
	size int
}{{false, 12}, {true, 12}, {false, 13}, {true, 20}}

func main() {
	log.SetFlags(0)
	log.SetPrefix("genglyphs: ")
	dir := flag.String("fonts", "/usr/share/fonts/opentype/mplus", "the directory of Mplus1-Regular.otf and Mplus1-Bold.otf (Debian's fonts-mplus)")
	catalog := flag.String("catalog", "../lang/catalog/ja/picture.toml", "the Japanese catalog of the picture's texts")
	out := flag.String("o", "fonts/ja-glyphs.bin", "the file to write")
	flag.Parse()

	runes, err := needed(*catalog)
	if err != nil {
		log.Fatal(err)
	}
	var faces [2]*opentype.Font
	for i, name := range []string{"Mplus1-Regular.otf", "Mplus1-Bold.otf"} {
		data, err := os.ReadFile(*dir + "/" + name)
		if err != nil {
			log.Fatalf("%v (apt-get install fonts-mplus)", err)
		}
		if faces[i], err = opentype.Parse(data); err != nil {
			log.Fatalf("%s: %v", name, err)
		}
	}
	var raw bytes.Buffer
	put := func(v any) {
		if err := binary.Write(&raw, binary.LittleEndian, v); err != nil {
			log.Fatal(err)
		}
	}
	put(uint8(len(sets)))
	for _, s := range sets {
		f := faces[0]
		if s.bold {
			f = faces[1]
		}
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(s.size), DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			log.Fatal(err)
		}
		put([]uint8{b2u(s.bold), uint8(s.size)})
		put(uint16(len(runes)))
		for _, r := range runes {
			if _, ok := face.GlyphAdvance(r); !ok {
				log.Fatalf("M+ 1 has no glyph for %q (U+%04X)", r, r)
			}
			dr, mask, mp, adv, ok := face.Glyph(fixed.Point26_6{}, r)
			if !ok {
				log.Fatalf("rasterizing %q: failed", r)
			}
			a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
			if mask != nil {
				draw.Draw(a, a.Bounds(), mask, mp, draw.Src)
			}
			put(uint32(r))
			put(int32(adv))
			put([]int16{int16(dr.Min.X), int16(dr.Min.Y), int16(dr.Max.X), int16(dr.Max.Y)})
			raw.Write(a.Pix)
		}
		face.Close()
	}
	var b bytes.Buffer
	b.WriteString("TGLY")
	z, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	z.Write(raw.Bytes())
	if err := z.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d characters at %d sizes, %d bytes", *out, len(runes), len(sets), b.Len())
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// needed returns the characters the picture's Japanese texts use that the
// Go fonts lack, in order: those of every text jatexts.Texts gathers.
func needed(catalog string) ([]rune, error) {
	texts, err := jatexts.Texts(catalog)
	if err != nil {
		return nil, err
	}
	gof, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, err
	}
	var buf sfnt.Buffer
	seen := map[rune]bool{}
	var runes []rune
	for _, t := range texts {
		for _, r := range t {
			if seen[r] {
				continue
			}
			seen[r] = true
			if i, err := gof.GlyphIndex(&buf, r); err == nil && i != 0 {
				continue // the Go fonts draw it
			}
			runes = append(runes, r)
		}
	}
	slices.Sort(runes)
	if len(runes) == 0 {
		return nil, fmt.Errorf("%s: no character the Go fonts lack", catalog)
	}
	return runes, nil
}
