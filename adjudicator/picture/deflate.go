package picture

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// The encoder's own deflate (RFC 1951), made for the rows of a paletted
// picture. compress/flate at its fastest looks for repeats through a hash
// of the next four bytes alone, and builds two Huffman codes for every
// 64 KB through sort.Interface: on a map, two thirds of a render's
// encoding. A map's rows are mostly runs of one colour and repeats of the
// row above, its lines' edges the row above shifted by a pixel; so the
// matches tried first are those: the byte before, and the row above, one
// pixel left, straight and one right, the first eight bytes of each
// compared at once, and only the longest of them followed further. A hash
// of four bytes still finds the repeats further off, as the letters of
// names and unit ids, where none of those repeats three bytes. The
// matches are taken greedily, and each band is one block with its own
// Huffman codes.
//
// Where the time goes, on the crowded campaign picture: some 250,000
// symbols for 4.4 million bytes, three in five of them literals at the
// antialiased edges of lines and letters, a few in each run. Each symbol
// is found with a few loads and no loop; a match of eight bytes or more
// is followed, by eight bytes at a time, only for the best candidate, or
// for all of them if that one ends before tryMore bytes.

// zband is the scratch space of a band's compression, one per goroutine.
type zband struct {
	// toks are the band's symbols, each as its distance code + 1 (0 for
	// a literal)<<26 | its symbol<<16 | its distance (0 for a literal),
	// the symbol being the byte of a literal, or 256 + a match's length:
	// literals and matches are written alike, with no branch to guess
	// wrong at each (see bitWriter.tokens).
	toks []uint32
	sym  [256 + maxMatch + 1]int32 // how often each symbol comes
	dist [31]int32                 // how often each distance code + 1 comes
	lit  [286]int32                // the literal/length code's symbols' frequencies
	// hash is the last position of each hash of four bytes, plus base:
	// each band's base is above every position of the bands before, end,
	// so that they are passed over without clearing the table each time.
	hash      [1 << hashBits]int32
	base, end int32
	bw        bitWriter
	huff      huffScratch
	all       []uint8 // the codes' lengths, as writeLengths writes them
	runs      []codeRun
}

// deflate appends to out the band data[start:] compressed as a block of
// deflate, the bytes before start being those the stream holds before it
// (at most 32 KB, see maxDist), which the block may repeat. stride is the
// length of a row, its filter byte with it. A last block ends the stream;
// another is followed by an empty stored block, as a sync flush, so that
// the next band's block begins on a byte.
func (z *zband) deflate(out, data []byte, start, stride int, last bool) []byte {
	z.match(data, start, stride)
	z.bw.out = out
	if last {
		z.bw.write(1|2<<1, 3) // BFINAL, dynamic codes
	} else {
		z.bw.write(2<<1, 3)
	}
	z.writeBlock()
	if !last {
		z.bw.write(0, 3) // a stored block, empty: a sync flush
		z.bw.align()
		z.bw.out = append(z.bw.out, 0, 0, 0xff, 0xff)
	} else {
		z.bw.align()
	}
	out, z.bw.out = z.bw.out, nil
	return out
}

const (
	hashBits = 14
	// tryMore: a match of the candidate first found this long is taken;
	// a shorter one, the other candidates are followed too. Following
	// them all took a tenth more time for 1.4 % less.
	tryMore  = 32
	minMatch = 3
	maxMatch = 258
	maxDist  = 1 << 15
)

// match fills z.toks with the matches and literals of data[start:], z.sym
// and z.dist with how often each symbol and each distance code + 1 comes,
// and z.lit with the frequencies of the literal/length code's symbols.
func (z *zband) match(data []byte, start, stride int) {
	clear(z.sym[:])
	clear(z.dist[:])
	if int64(z.end)+int64(len(data))+1 > math.MaxInt32 {
		clear(z.hash[:])
		z.end = 0
	}
	z.base = z.end + 1
	z.end = z.base + int32(len(data))
	n := len(data)
	// Written in place, not appended; grown as they come, not to as many
	// as the bytes at once: a band of the map makes some 7,000 tokens for
	// its 128 KB, and the space is kept from band to band.
	toks, k := z.toks[:cap(z.toks)], 0
	for i := start; i < n; {
		var l, d int
		if i > stride && i+8 <= n {
			l, d = z.near(data, i, stride)
		} else {
			l, d = z.far(data, i, stride)
		}
		// A literal or a match, chosen without a branch: half of
		// the symbols are each, in no order a processor could guess.
		// Three bytes from far off cost more than three literals.
		sym, dc := 256+l, distCode(max(d, 1))+1
		if l < minMatch || l == minMatch && d > stride+1 {
			l, d, sym, dc = 1, 0, int(data[i]), 0
		}
		if k == len(toks) {
			toks = slices.Grow(toks, max(4096, k))
			toks = toks[:cap(toks)]
		}
		toks[k] = uint32(dc)<<26 | uint32(sym)<<16 | uint32(d)
		k++
		z.sym[sym]++
		z.dist[dc]++
		i += l
	}
	z.toks = toks[:k]
	copy(z.lit[:256], z.sym[:256])
	clear(z.lit[256:])
	for l := minMatch; l <= maxMatch; l++ {
		z.lit[257+lengthCode[l-minMatch]] += z.sym[256+l]
	}
	z.lit[256] = 1 // the end of the block
}

// near returns a match at i, stride < i <= len(data)-8, and its
// distance, or a length under minMatch for none: of the pixel before and
// the row above, one pixel left, straight and one right, whichever repeats
// most of the next eight bytes, followed further if it repeats all eight
// (see tryMore); else, if none repeats three, the last position with the
// same hash of four bytes.
func (z *zband) near(data []byte, i, stride int) (int, int) {
	x := binary.LittleEndian.Uint64(data[i:])
	l, d := bits.TrailingZeros64(x^binary.LittleEndian.Uint64(data[i-1:]))>>3, 1
	if m := bits.TrailingZeros64(x^binary.LittleEndian.Uint64(data[i-stride:])) >> 3; m > l {
		l, d = m, stride
	}
	if m := bits.TrailingZeros64(x^binary.LittleEndian.Uint64(data[i-stride+1:])) >> 3; m > l {
		l, d = m, stride-1
	}
	if m := bits.TrailingZeros64(x^binary.LittleEndian.Uint64(data[i-stride-1:])) >> 3; m > l {
		l, d = m, stride+1
	}
	if l == 8 {
		l = 8 + matchLen(data, i-d+8, i+8, maxMatch-8)
		if l >= tryMore {
			return l, d
		}
		for _, e := range [4]int{1, stride, stride - 1, stride + 1} {
			if e != d && binary.LittleEndian.Uint64(data[i-e:]) == x {
				if m := 8 + matchLen(data, i-e+8, i+8, maxMatch-8); m > l {
					l, d = m, e
				}
			}
		}
		return l, d
	}
	if l >= 3 {
		return l, d
	}
	h := uint32(x) * 0x9e3779b1 >> (32 - hashBits)
	c := int(z.hash[h] - z.base)
	z.hash[h] = int32(i) + z.base
	if c < 0 || i-c > maxDist {
		return l, d
	}
	m := bits.TrailingZeros64(x^binary.LittleEndian.Uint64(data[c:])) >> 3
	if m == 8 {
		m += matchLen(data, c+8, i+8, maxMatch-8)
	}
	if m > l {
		return m, i - c
	}
	return l, d
}

// far is near for the positions near does not take, with no hash: the
// first row of the picture, and the last seven bytes of a band.
func (z *zband) far(data []byte, i, stride int) (int, int) {
	bestL, bestD := 0, 0
	n := len(data)
	if i+4 > n {
		return 0, 0
	}
	next := binary.LittleEndian.Uint32(data[i:])
	for _, d := range [4]int{1, stride, stride - 1, stride + 1} {
		if d > i || binary.LittleEndian.Uint32(data[i-d:]) != next {
			continue
		}
		if l := 4 + matchLen(data, i-d+4, i+4, maxMatch-4); l > bestL {
			bestL, bestD = l, d
		}
	}
	return bestL, bestD
}

// matchLen returns how many bytes, up to most, data[i:] repeats of
// data[j:], j < i: sixteen bytes compared at a time, as the bulk of a
// picture lies in long matches.
func matchLen(data []byte, j, i, most int) int {
	m := min(most, len(data)-i)
	a, b := data[i:i+m], data[j:j+m]
	l := 0
	for l+16 <= m {
		x := binary.LittleEndian.Uint64(a[l:]) ^ binary.LittleEndian.Uint64(b[l:])
		y := binary.LittleEndian.Uint64(a[l+8:]) ^ binary.LittleEndian.Uint64(b[l+8:])
		if x|y != 0 {
			if x != 0 {
				return l + bits.TrailingZeros64(x)>>3
			}
			return l + 8 + bits.TrailingZeros64(y)>>3
		}
		l += 16
	}
	for l < m && a[l] == b[l] {
		l++
	}
	return l
}

// writeBlock writes the block of z.toks with Huffman codes of its own: its
// header, the codes' lengths, the symbols, the end of the block.
func (z *zband) writeBlock() {
	var litLen [286]uint8
	var distLen [30]uint8
	z.huff.lengths(z.lit[:], 15, litLen[:])
	z.huff.lengths(z.dist[1:], 15, distLen[:])
	nLit, nDist := 286, 30
	for nLit > 257 && litLen[nLit-1] == 0 {
		nLit--
	}
	for nDist > 1 && distLen[nDist-1] == 0 {
		nDist--
	}
	all := append(append(z.all[:0], litLen[:nLit]...), distLen[:nDist]...)
	z.all = all
	z.writeLengths(all, nLit, nDist)

	var litCode [286]uint16
	var distCodes [30]uint16
	canonical(litLen[:], litCode[:])
	canonical(distLen[:], distCodes[:])
	// Each symbol's code, a literal's or a length's with its extra bits,
	// and how many bits they are in all, as bits | count<<24.
	var symEnc [256 + maxMatch + 1]uint32
	for s := range 256 {
		symEnc[s] = uint32(litCode[s]) | uint32(litLen[s])<<24
	}
	for l := minMatch; l <= maxMatch; l++ {
		lc := lengthCode[l-minMatch]
		s := 257 + lc
		symEnc[256+l] = (uint32(litCode[s]) | uint32(l-minMatch-lengthBase[lc])<<litLen[s]) | (uint32(litLen[s])+uint32(lengthExtra[lc]))<<24
	}
	// Each distance code + 1's code, as bits | code length<<16 | length
	// with the extra bits<<24 | the code's first distance<<32 | the
	// extra bits' mask<<48; none for a literal's 0.
	var distEnc [31]uint64
	for dc := range 30 {
		distEnc[dc+1] = uint64(distCodes[dc]) | uint64(distLen[dc])<<16 | (uint64(distLen[dc])+uint64(distExtra[dc]))<<24 | uint64(distBase[dc]+1)<<32 | uint64(1<<distExtra[dc]-1)<<48
	}
	// The symbols' bits, counted, so that the band's output grows by
	// what they take and no more: it is kept until the picture is put
	// together, and again for the next.
	size := uint64(0)
	for s, f := range z.sym {
		size += uint64(f) * uint64(symEnc[s]>>24)
	}
	for dc, f := range z.dist {
		size += uint64(f) * (distEnc[dc] >> 24 & 0xff)
	}
	z.bw.tokens(z.toks, int(size/8), &symEnc, &distEnc)
	z.bw.write(uint64(litCode[256]), uint(litLen[256]))
}

// tokens writes the tokens of a block, literals and matches, by their
// codes, each the same way: a literal's distance code is one of no bits. A
// token is 48 bits at most (a length's code and extra bits, 20, a
// distance's, 28): written to the 7 bits or fewer held, it fills at most
// 55 of the 64 of acc, all of which are stored, eight bytes at a time,
// and the whole bytes kept.
func (b *bitWriter) tokens(toks []uint32, size int, symEnc *[256 + maxMatch + 1]uint32, distEnc *[31]uint64) {
	b.flush()
	// size bytes, and the eight the last token's store writes past them.
	out := slices.Grow(b.out, size+16)
	buf, pos := out[:cap(out)], len(out)
	acc, n := b.acc, b.n
	for _, t := range toks {
		e := symEnc[t>>16&0x3ff]
		de := distEnc[t>>26]
		extra := (uint64(t&0xffff) - de>>32&0xffff) & (de >> 48)
		acc |= uint64(e&0xffffff) << n
		n += uint(e >> 24)
		acc |= (de&0xffff | extra<<(de>>16&0xff)) << n
		n += uint(de >> 24 & 0xff)
		binary.LittleEndian.PutUint64(buf[pos:], acc)
		pos += int(n >> 3)
		acc >>= n &^ 7
		n &= 7
	}
	b.out, b.acc, b.n = buf[:pos], acc, n
}

// codeRun is a run of the codes' lengths: a symbol 0-15, or 16, 17, 18
// and its repeat count.
type codeRun struct{ sym, extra uint8 }

// clOrder is the order the code length code's lengths are written in.
var clOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// writeLengths writes the header of a dynamic block: the lengths all of the
// literal/length code's nLit symbols and the distance code's nDist, run
// length coded, by a code of their own.
func (z *zband) writeLengths(all []uint8, nLit, nDist int) {
	runs := z.runs[:0]
	var freq [19]int32
	for i := 0; i < len(all); {
		v := all[i]
		j := i + 1
		for j < len(all) && all[j] == v {
			j++
		}
		n := j - i
		for n > 0 {
			switch {
			case v == 0 && n >= 11:
				k := min(n, 138)
				runs = append(runs, codeRun{18, uint8(k - 11)})
				n -= k
			case v == 0 && n >= 3:
				runs = append(runs, codeRun{17, uint8(n - 3)})
				n = 0
			case v != 0 && n >= 4:
				runs = append(runs, codeRun{v, 0})
				k := min(n-1, 6)
				runs = append(runs, codeRun{16, uint8(k - 3)})
				n -= 1 + k
			default:
				runs = append(runs, codeRun{v, 0})
				n--
			}
		}
		i = j
	}
	z.runs = runs
	for _, r := range runs {
		freq[r.sym]++
	}
	var clLen [19]uint8
	var clCode [19]uint16
	z.huff.lengths(freq[:], 7, clLen[:])
	canonical(clLen[:], clCode[:])
	nCL := 19
	for nCL > 4 && clLen[clOrder[nCL-1]] == 0 {
		nCL--
	}
	bw := &z.bw
	bw.write(uint64(nLit-257)|uint64(nDist-1)<<5|uint64(nCL-4)<<10, 14)
	for _, s := range clOrder[:nCL] {
		bw.write(uint64(clLen[s]), 3)
	}
	extraBits := [19]uint{16: 2, 17: 3, 18: 7}
	for _, r := range runs {
		bw.write(uint64(clCode[r.sym])|uint64(r.extra)<<clLen[r.sym], uint(clLen[r.sym])+extraBits[r.sym])
	}
}

// huffScratch is the scratch space of Huffman codes' lengths.
type huffScratch struct {
	syms   []uint64 // the symbols used, by frequency: frequency<<16 | symbol
	tmp    []uint64 // sort's
	weight []int64  // of the tree's nodes: the leaves, then the inner nodes
	parent []int32
	depth  []int32
}

// lengths sets lens to the lengths of a Huffman code for the frequencies
// freq, none longer than maxBits. At least two symbols get a code, as a
// decoder wants of a code: the first two, if nothing else is used.
func (hs *huffScratch) lengths(freq []int32, maxBits int, lens []uint8) {
	clear(lens)
	// The symbols used by frequency, then by symbol: each as its
	// frequency and symbol in one number, sorted as numbers.
	syms := hs.syms[:0]
	for s, f := range freq {
		if f > 0 {
			syms = append(syms, uint64(f)<<16|uint64(s))
		}
	}
	for s := 0; len(syms) < 2; s++ {
		if freq[s] == 0 {
			syms = append(syms, uint64(s))
		}
	}
	syms = hs.sort(syms)
	n := len(syms)
	// The tree, by two queues: the leaves, by weight, and the inner nodes,
	// made in order of weight.
	w := hs.weight[:0]
	for _, s := range syms {
		w = append(w, max(int64(s>>16), 1))
	}
	par := append(hs.parent[:0], make([]int32, 2*n-1)...)
	leaf, inner := 0, n
	pick := func() int {
		if leaf < n && (inner >= len(w) || w[leaf] <= w[inner]) {
			leaf++
			return leaf - 1
		}
		inner++
		return inner - 1
	}
	for range n - 1 {
		a, b := pick(), pick()
		par[a], par[b] = int32(len(w)), int32(len(w))
		w = append(w, w[a]+w[b])
	}
	hs.weight, hs.parent = w, par
	depth := append(hs.depth[:0], make([]int32, len(w))...)
	hs.depth = depth
	var count [64]int
	maxLen := 0
	for i := len(w) - 2; i >= 0; i-- {
		depth[i] = depth[par[i]] + 1
		if i < n {
			d := min(int(depth[i]), len(count)-1)
			count[d]++
			maxLen = max(maxLen, d)
		}
	}
	// Too long: moved up as JPEG's Annex K.3 does, keeping the code whole.
	for i := maxLen; i > maxBits; i-- {
		for count[i] > 0 {
			j := i - 2
			for count[j] == 0 {
				j--
			}
			count[i] -= 2
			count[i-1]++
			count[j+1] += 2
			count[j]--
		}
	}
	// The longest codes to the rarest symbols.
	k := 0
	for l := min(maxLen, maxBits); l > 0; l-- {
		for range count[l] {
			lens[syms[k]&0xffff] = uint8(l)
			k++
		}
	}
}

// sort sorts syms, frequency<<16 | symbol, by a radix sort on the
// frequency's bytes, as many passes as the greatest frequency has bytes:
// the symbols come in order, and each pass keeps the order of the one
// before. It is some five times quicker than slices.Sort on a block's few
// hundred symbols. It returns the sorted symbols, in syms or in the
// scratch space kept with them.
func (hs *huffScratch) sort(syms []uint64) []uint64 {
	top := uint64(0)
	for _, s := range syms {
		top = max(top, s)
	}
	tmp := slices.Grow(hs.tmp[:0], len(syms))[:len(syms)]
	src, dst := syms, tmp
	for shift := 16; shift < 64 && top>>shift != 0; shift += 8 {
		var count [257]int
		for _, s := range src {
			count[s>>shift&0xff+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, s := range src {
			b := s >> shift & 0xff
			dst[count[b]] = s
			count[b]++
		}
		src, dst = dst, src
	}
	hs.syms, hs.tmp = src, dst
	return src
}

// canonical sets codes to the canonical Huffman code of lengths lens,
// each code's bits reversed, as deflate writes them first bit first.
func canonical(lens []uint8, codes []uint16) {
	var count [16]uint16
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [16]uint16
	code := uint16(0)
	for l := 1; l < 16; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	for s, l := range lens {
		if l > 0 {
			codes[s] = bits.Reverse16(next[l]) >> (16 - l)
			next[l]++
		}
	}
}

// bitWriter appends bits to out, first bit first.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

// write writes the n low bits of v, n at most 32.
func (b *bitWriter) write(v uint64, n uint) {
	b.acc |= v << b.n
	b.n += n
	if b.n >= 32 {
		b.out = binary.LittleEndian.AppendUint32(b.out, uint32(b.acc))
		b.acc >>= 32
		b.n -= 32
	}
}

// flush writes the whole bytes of the bits held.
func (b *bitWriter) flush() {
	for b.n >= 8 {
		b.out = append(b.out, byte(b.acc))
		b.acc >>= 8
		b.n -= 8
	}
}

// align writes the bits held and pads them to a byte with zeros.
func (b *bitWriter) align() {
	for b.n > 0 {
		b.out = append(b.out, byte(b.acc))
		b.acc >>= 8
		b.n -= min(b.n, 8)
	}
	b.acc = 0
}

// The length and distance codes of RFC 1951, 3.2.5: their first value and
// extra bits.
var (
	lengthBase  = [29]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 255}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]int{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}

	// lengthCode is the length code of each match length less minMatch.
	lengthCode = func() (t [maxMatch - minMatch + 1]int) {
		for c := range lengthBase {
			for l := lengthBase[c]; l < len(t) && (c == len(lengthBase)-1 || l < lengthBase[c+1]); l++ {
				t[l] = c
			}
		}
		return t
	}()
)

// distCode returns the distance code of distance d, 1 to maxDist.
func distCode(d int) int {
	d--
	if d < 4 {
		return d
	}
	// Two codes for each power of two: the highest bit and the one after.
	hb := bits.Len(uint(d)) - 1
	return 2*hb + d>>(hb-1)&1
}

// adler32Of returns the adler-32 checksum of p, as hash/adler32 does, 32
// bytes at a time: each step adds to the second sum 32 times the first and
// the bytes weighted 32 down to 1. A byte k of the step's word j (k, j
// from 0) weighs 8(3-j) + 8-k: the second part is worked out for the four
// words at once by multiplying their even and their odd bytes, added up
// in four 16-bit lanes, by their weights, the products' sum falling into
// the top lane; the first by multiplying the bytes, likewise added up,
// weighted 3, 2, 1, 0 by word. Some 0.3 of the time of hash/adler32,
// which adds a byte at a time.
func adler32Of(p []byte) uint32 {
	const (
		mod  = 65521
		nmax = 5552 // as zlib reduces the sums
		lo   = 0x00ff00ff00ff00ff
		ones = 0x0001000100010001
	)
	s1, s2 := uint64(1), uint64(0)
	for len(p) > 0 {
		n := min(len(p), nmax)
		q := p[:n]
		for len(q) >= 32 {
			v0, v1 := binary.LittleEndian.Uint64(q), binary.LittleEndian.Uint64(q[8:])
			v2, v3 := binary.LittleEndian.Uint64(q[16:]), binary.LittleEndian.Uint64(q[24:])
			w0, w1, w2 := v0&lo+v0>>8&lo, v1&lo+v1>>8&lo, v2&lo+v2>>8&lo
			even := v0&lo + v1&lo + v2&lo + v3&lo
			odd := v0>>8&lo + v1>>8&lo + v2>>8&lo + v3>>8&lo
			byWord := 3*w0 + 2*w1 + w2
			s2 += 32*s1 + 8*(byWord*ones>>48) + (even*0x0008000600040002)>>48 + (odd*0x0007000500030001)>>48
			s1 += ((even + odd) * ones) >> 48
			q = q[32:]
		}
		for _, b := range q {
			s1 += uint64(b)
			s2 += s1
		}
		s1 %= mod
		s2 %= mod
		p = p[n:]
	}
	return uint32(s2<<16 | s1)
}
