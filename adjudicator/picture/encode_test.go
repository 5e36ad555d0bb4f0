package picture

import (
	"bytes"
	"compress/zlib"
	"hash/adler32"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"titm/adjudicator/lang"
	"titm/rules"
)

// TestDeflate compresses bands of made-up rows with the encoder's deflate
// and reads them back with compress/zlib: runs, repeats of the row above
// shifted, noise, a band of one byte, bands too short for a match, and
// bands whose first row repeats the band before.
func TestDeflate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const stride = 301
	row := func(kind int, y int) []byte {
		r := make([]byte, stride)
		for x := 1; x < stride; x++ {
			switch kind {
			case 0: // flat, with a diagonal line
				if x == y%stride || x == y%stride+1 {
					r[x] = 7
				}
			case 1: // noise
				r[x] = byte(rnd.IntN(256))
			case 2: // few colours, short runs
				r[x] = byte(rnd.IntN(3) * (x / 50))
			}
		}
		return r
	}
	for _, c := range []struct {
		name  string
		bands [][]byte
	}{
		{"one byte", [][]byte{{0}}},
		{"short", [][]byte{{0, 1, 2}, {0, 1}}},
		{"flat", [][]byte{bytes.Repeat(row(0, 0), 1)}},
		{"mixed", func() [][]byte {
			var bands [][]byte
			for b := range 6 {
				var band []byte
				for y := range 40 {
					band = append(band, row((b+y/13)%3, 40*b+y)...)
				}
				bands = append(bands, band)
			}
			return bands
		}()},
		{"long", [][]byte{bytes.Repeat(row(0, 3), 300), bytes.Repeat(row(1, 0), 120)}},
	} {
		var stream, want []byte
		stream = append(stream, 0x78, 0x01)
		var z zband
		adler := uint32(1)
		for i, band := range c.bands {
			hist := 0
			data := band
			if i > 0 {
				// The band before's last row, or what there is of it.
				prev := c.bands[i-1]
				hist = min(len(prev), stride)
				data = append(append([]byte{}, prev[len(prev)-hist:]...), band...)
			}
			stream = z.deflate(stream, data, hist, stride, i == len(c.bands)-1)
			want = append(want, band...)
			adler = adler32Combine(adler, adler32.Checksum(band), len(band))
		}
		stream = append(stream, byte(adler>>24), byte(adler>>16), byte(adler>>8), byte(adler))
		zr, err := zlib.NewReader(bytes.NewReader(stream))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: reading the stream back: %v", c.name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes read back differ from the %d compressed", c.name, len(got), len(want))
		}
		t.Logf("%s: %d bytes in %d", c.name, len(want), len(stream))
	}
}

// TestAdler32: the encoder's adler-32 is hash/adler32's, on bytes of every
// value, of lengths round its steps of 8 bytes and of zlib's 5552.
func TestAdler32(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 8, 9, 63, 5551, 5552, 5553, 66030, 200000} {
		for _, fill := range []string{"random", "0xff"} {
			p := make([]byte, n)
			for i := range p {
				p[i] = 0xff
				if fill == "random" {
					p[i] = byte(rnd.IntN(256))
				}
			}
			if got, want := adler32Of(p), adler32.Checksum(p); got != want {
				t.Errorf("%d bytes, %s: %08x, want %08x", n, fill, got, want)
			}
		}
	}
}

// TestHuffmanLengths: the lengths make a whole code (Kraft's sum exactly
// one) no longer than the limit, on frequencies far apart enough that an
// unlimited code would be longer, and with one symbol or none used.
func TestHuffmanLengths(t *testing.T) {
	var hs huffScratch
	for _, c := range []struct {
		name string
		freq []int32
		max  int
	}{
		{"none", make([]int32, 30), 15},
		{"one", []int32{0, 0, 5, 0}, 15},
		{"fibonacci", func() []int32 {
			f := make([]int32, 30)
			a, b := int32(1), int32(1)
			for i := range f {
				f[i], a, b = a, b, a+b
			}
			return f
		}(), 15},
		{"code lengths", []int32{1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181}, 7},
	} {
		lens := make([]uint8, len(c.freq))
		hs.lengths(c.freq, c.max, lens)
		sum, used := 0.0, 0
		for s, l := range lens {
			if int(l) > c.max {
				t.Errorf("%s: symbol %d has %d bits, over %d", c.name, s, l, c.max)
			}
			if c.freq[s] > 0 && l == 0 {
				t.Errorf("%s: symbol %d is used and has no code", c.name, s)
			}
			if l > 0 {
				sum += 1 / float64(uint(1)<<l)
				used++
			}
		}
		if sum != 1 || used < 2 {
			t.Errorf("%s: Kraft's sum is %v over %d codes, want 1 over 2 or more", c.name, sum, used)
		}
	}
}

// crowdedPaletted is the crowded campaign picture, paletted.
func crowdedPaletted(b *testing.B) *image.Paletted {
	s, st, ev := crowded(b)
	data := render(b, s, st, &Options{Title: "Game campaign-3 — after impulse G18-2 — German VP 0", Highlights: HighlightsOf(ev)})
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	pi, ok := img.(*image.Paletted)
	if !ok {
		b.Fatalf("the picture decodes as %T, not paletted", img)
	}
	return pi
}

// BenchmarkEncode encodes the crowded campaign picture, paletted, with the
// encoder, as Render does (its rows compressed in bands, in parallel, the
// PNG put together), and with image/png at its fastest; it reports the
// CPU time of each, their ratio "hand/image-png", and the sizes.
func BenchmarkEncode(b *testing.B) {
	pi := crowdedPaletted(b)
	w, h := pi.Rect.Dx(), pi.Rect.Dy()
	fp := newFixedPalette(pi.Palette)
	ix := &indexed{pix: make([]byte, (w+1)*h), w: w, rect: pi.Rect, fp: fp}
	for y := range h {
		copy(ix.row(y), pi.Pix[y*pi.Stride:][:w])
	}
	var e encoder
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	var hand, std time.Duration
	var handN, stdN int
	b.ReportAllocs()
	for b.Loop() {
		t0 := cpuTime(b)
		e.beginIndexed(fp, w, h)
		e.compressIndexed(ix)
		handN = len(e.png())
		t1 := cpuTime(b)
		var buf bytes.Buffer
		if err := enc.Encode(&buf, pi); err != nil {
			b.Fatal(err)
		}
		stdN = buf.Len()
		t2 := cpuTime(b)
		hand += t1 - t0
		std += t2 - t1
	}
	b.ReportMetric(float64(hand)/1e6/float64(b.N), "hand-cpu-ms/op")
	b.ReportMetric(float64(std)/1e6/float64(b.N), "image-png-cpu-ms/op")
	b.ReportMetric(float64(hand)/float64(std), "hand/image-png")
	b.ReportMetric(float64(handN)/1024, "hand-KB")
	b.ReportMetric(float64(stdN)/1024, "image-png-KB")
}

// TestDrawnInPalette: the picture drawn in its palette's entries is the
// picture drawn in RGBA, but for the shades at shapes' and letters' edges,
// which take the nearest entry of a palette fixed before: no more pixels
// differ, nor by much more, than with a palette of the picture's own
// colours, as the encoder made of a picture drawn in RGBA; in English and
// Japanese, crowded and at the start.
func TestDrawnInPalette(t *testing.T) {
	s, st, ev := crowded(t)
	ja := lang.For(lang.Japanese)
	for _, c := range []struct {
		name string
		st   *rules.State
		opt  *Options
	}{
		{"crowded", st, &Options{Title: "Game campaign-3 — after impulse G18-2 — German VP 0", Highlights: HighlightsOf(ev)}},
		{"start ja", rules.NewState(s), &Options{Title: TitleBefore(ja, "campaign-3", rules.Impulse{Day: 16, N: 1}, 0), Lang: ja}},
	} {
		_, want := drawn(s, c.st, c.opt)
		got := decode(t, render(t, s, c.st, c.opt))
		if got.Bounds() != want.Rect {
			t.Fatalf("%s: the picture is %v, drawn %v", c.name, got.Bounds(), want.Rect)
		}
		differ, worst := compare(got, want)
		// The encoder's own palette of the picture, its colours counted,
		// as a picture drawn in RGBA was encoded.
		var e encoder
		e.begin(want.Rect.Dx(), want.Rect.Dy())
		e.count(want)
		e.palette()
		own := image.NewPaletted(want.Rect, e.pal)
		fp := newFixedPalette(e.pal)
		for y := want.Rect.Min.Y; y < want.Rect.Max.Y; y++ {
			for x := want.Rect.Min.X; x < want.Rect.Max.X; x++ {
				own.Pix[own.PixOffset(x, y)] = fp.of(pixel(want.Pix, want.PixOffset(x, y)))
			}
		}
		ownDiffer, ownWorst := compare(own, want)
		t.Logf("%s: %d pixels differ from RGBA, by %d levels at most; with the picture's own palette %d, by %d", c.name, differ, worst, ownDiffer, ownWorst)
		if differ > 2*ownDiffer || worst > ownWorst+16 {
			t.Errorf("%s: %d pixels differ from the picture drawn in RGBA, by up to %d levels; with its own palette %d, by %d", c.name, differ, worst, ownDiffer, ownWorst)
		}
	}
}

// compare returns how many pixels of got differ from want, and the
// greatest difference of a channel.
func compare(got image.Image, want *image.RGBA) (differ, worst int) {
	for y := want.Rect.Min.Y; y < want.Rect.Max.Y; y++ {
		for x := want.Rect.Min.X; x < want.Rect.Max.X; x++ {
			r, g, b, _ := got.At(x, y).RGBA()
			w := want.RGBAAt(x, y)
			d := max(absDiff(r>>8, w.R), absDiff(g>>8, w.G), absDiff(b>>8, w.B))
			if d > 0 {
				differ++
			}
			worst = max(worst, d)
		}
	}
	return differ, worst
}

func absDiff(a uint32, b uint8) int {
	d := int(a) - int(b)
	return max(d, -d)
}

// TestEncoderKeepsLittle: what the renderer keeps from one picture to the
// next is the memory a render needs, not the most it might: the daemon
// runs under a memory limit, and every MB kept brings the collector
// round sooner. The tokens of a band grow as they come, not to a token a
// byte; a band's output is as large as its bits, not seven bytes a token;
// the tables of colours counted go once the palette is worked out.
func TestEncoderKeepsLittle(t *testing.T) {
	s, st, ev := crowded(t)
	opt := &Options{Title: "Game campaign-3 — after impulse G18-2 — German VP 0", Highlights: HighlightsOf(ev)}
	// From an encoder of its own: what other tests drew before leaves
	// room for larger bands.
	r := <-renderers
	r.enc = encoder{}
	renderers <- r
	render(t, s, st, opt)
	render(t, s, st, opt)
	r = <-renderers
	defer func() { renderers <- r }()
	e := &r.enc
	band := zRows(e.w) * (e.w + 1)
	for i, z := range e.z {
		if cap(z.toks) > band/4 {
			t.Errorf("worker %d keeps room for %d tokens, for bands of %d bytes", i, cap(z.toks), band)
		}
	}
	for i, b := range e.bands[:e.nbands()] {
		// The allocator's size classes round up by a fifth at most.
		if cap(b.z) > len(b.z)+len(b.z)/4+64 {
			t.Errorf("band %d keeps %d bytes for its %d", i, cap(b.z), len(b.z))
		}
	}
	if len(e.counts) > 0 {
		t.Errorf("%d tables of colours counted kept", len(e.counts))
	}
}
