package picture

import (
	"bytes"
	"compress/zlib"
	"hash/adler32"
	"image"
	"image/draw"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"
	"time"
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

// crowdedRGBA is the crowded campaign picture as the encoder is given it,
// and as image/png is: all of it, RGBA and paletted.
func crowdedRGBA(b *testing.B) (*image.RGBA, *image.Paletted) {
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
	rgba := image.NewRGBA(pi.Rect)
	draw.Draw(rgba, rgba.Rect, pi, image.Point{}, draw.Src)
	return rgba, pi
}

// BenchmarkEncode encodes the crowded campaign picture with the encoder,
// as Render does, from its RGBA pixels (counting its colours, paletting
// and compressing them), and the same picture paletted with image/png at
// its fastest; it reports the CPU time of each and their ratio,
// "hand/image-png", and the sizes.
func BenchmarkEncode(b *testing.B) {
	rgba, pi := crowdedRGBA(b)
	var e encoder
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	var hand, std time.Duration
	var handN, stdN int
	b.ReportAllocs()
	for b.Loop() {
		t0 := cpuTime(b)
		e.begin(rgba.Rect.Dx(), rgba.Rect.Dy())
		e.count(rgba)
		e.palette()
		e.compress(rgba)
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
