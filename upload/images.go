package upload

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"runtime"
	"sort"

	"github.com/stratum-cms/stratum/errs"
	"golang.org/x/image/draw"
	"golang.org/x/sync/semaphore"
)

var errNotImage = errors.New("not an image")

// maxPixels refuses images whose decoding would take too much memory
// (a small file can claim enormous dimensions).
const maxPixels = 40_000_000

// DefaultMaxConcurrentPixels is how many pixels may be decoded and resized
// at once when Config.MaxConcurrentPixels is unset: one image at the
// 40-megapixel cap (about 160 MB decoded), or several smaller ones.
const DefaultMaxConcurrentPixels = maxPixels

// pixelGate bounds the pixels of images being worked on at once across
// requests: a 100 KB PNG decodes to 160 MB, so without it a few
// concurrent uploads take gigabytes. Requests over the bound wait their
// turn, or give up when their context ends.
type pixelGate struct {
	sem  *semaphore.Weighted
	size int64
}

func newPixelGate(n int64) *pixelGate {
	return &pixelGate{sem: semaphore.NewWeighted(n), size: n}
}

// acquire takes n pixels (at most the whole gate, so an image larger than
// the bound runs alone rather than never) and returns the release.
func (g *pixelGate) acquire(ctx context.Context, n int64) (func(), error) {
	n = max(1, min(n, g.size))
	if err := g.sem.Acquire(ctx, n); err != nil {
		return nil, err
	}
	if testHookPixels != nil {
		testHookPixels(n)
	}
	return func() {
		if testHookPixels != nil {
			testHookPixels(-n)
		}
		// The garbage of a large image (160 MB at the cap) would otherwise
		// still be on the heap when the next one is decoded: the GC lets
		// the heap reach twice what was live, so the gate alone would bound
		// memory at twice its size. A collection now (cheap: the pixels are
		// not scanned) lets the next image reuse the same memory.
		if n >= gcPixels {
			runtime.GC()
		}
		g.sem.Release(n)
	}, nil
}

// gcPixels is the size of image after which the heap is collected.
const gcPixels = 4_000_000

// testHookPixels, when set by tests, sees every acquire (+n) and release
// (-n) of the pixel gate.
var testHookPixels func(delta int64)

// imageConfig reads an image's header: its size, before anything is
// decoded.
func imageConfig(body []byte, mime string) (image.Config, error) {
	switch mime {
	case "image/jpeg", "image/png", "image/gif":
	default:
		return image.Config{}, errNotImage
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
	if err != nil {
		return image.Config{}, errNotImage
	}
	if cfg.Width*cfg.Height > maxPixels {
		return cfg, errs.Errorf(errs.KindValidation, "Image of %d×%d pixels is too large", cfg.Width, cfg.Height)
	}
	return cfg, nil
}

// format is one entry of a file's formats.
type format struct {
	Name        string  `json:"name"`
	Hash        string  `json:"hash"`
	Ext         string  `json:"ext"`
	Mime        string  `json:"mime"`
	Path        *string `json:"path"`
	Width       int     `json:"width"`
	Height      int     `json:"height"`
	Size        float64 `json:"size"`
	SizeInBytes int     `json:"sizeInBytes"`
	URL         string  `json:"url"`
}

type target struct {
	key    string
	w, h   int     // the size of the format
	scale  float64 // w / the original's width
	format format
}

// targets are Strapi's formats of a w×h image, largest first: a thumbnail
// (inside 245×156) when the image is larger, and each breakpoint (inside
// N×N) the image exceeds.
func (s *Service) targets(w, h int) []target {
	var out []target
	add := func(key string, bw, bh int) {
		scale := min(float64(bw)/float64(w), float64(bh)/float64(h))
		out = append(out, target{key: key, scale: scale,
			w: max(1, int(float64(w)*scale+0.5)), h: max(1, int(float64(h)*scale+0.5))})
	}
	if w > 245 || h > 156 {
		add("thumbnail", 245, 156)
	}
	for k, n := range s.cfg.Breakpoints {
		if w > n || h > n {
			add(k, n, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].scale != out[j].scale {
			return out[i].scale > out[j].scale
		}
		return out[i].key < out[j].key
	})
	return out
}

// object is bytes to put under a key.
type object struct {
	key  string
	body []byte
	mime string
}

// image decodes an image whose header imageConfig checked and encodes its
// formats, holding the image's pixels in the gate meanwhile (the bytes
// are put after, without the gate). The formats' URLs are set once they
// are put. errNotImage when the body does not decode.
func (s *Service) image(ctx context.Context, body []byte, cfg image.Config, name, hash, ext, mime string) (map[string]*format, []object, error) {
	release, err := s.pixels.acquire(ctx, int64(cfg.Width)*int64(cfg.Height))
	if err != nil {
		return nil, nil, err
	}
	defer release()
	targets := s.targets(cfg.Width, cfg.Height)
	var box image.Point
	if len(targets) > 0 {
		box = image.Pt(targets[0].w, targets[0].h)
	}
	src, err := decodeReduced(body, box)
	if err != nil || len(targets) == 0 {
		return nil, nil, err
	}
	out := map[string]*format{}
	var objects []object
	for _, t := range targets {
		dst := image.NewRGBA(image.Rect(0, 0, t.w, t.h))
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Over, nil)
		var buf bytes.Buffer
		var err error
		switch mime {
		case "image/jpeg":
			err = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85})
		case "image/gif":
			err = gif.Encode(&buf, dst, nil)
		default:
			err = png.Encode(&buf, dst)
		}
		if err != nil {
			return nil, nil, err
		}
		fhash := t.key + "_" + hash
		objects = append(objects, object{key: fhash + ext, body: buf.Bytes(), mime: mime})
		out[t.key] = &format{Name: t.key + "_" + name, Hash: fhash, Ext: ext, Mime: mime, Width: t.w, Height: t.h,
			Size: kb(buf.Len()), SizeInBytes: buf.Len()}
	}
	return out, objects, nil
}

// decodeReduced decodes body, the one full-size copy of the image, and
// reduces it once for formats no larger than box (the largest), so that
// the decoded image is garbage before any format is made and every format
// is scaled from one small source.
func decodeReduced(body []byte, box image.Point) (image.Image, error) {
	img, _, err := image.Decode(bytes.NewReader(body))
	if err != nil {
		return nil, errNotImage
	}
	if box.X == 0 {
		return nil, nil
	}
	return reduce(img, box.X, box.Y), nil
}

// reduce averages img's pixels in kx×ky blocks, the largest whole factors
// that keep it at least w×h, so that the scaler's work (its buffer is
// the destination's width times the source's height) stays near the
// size of the formats. An image less than twice w×h is returned as is.
// The source is read a block of rows at a time through draw.Draw (fast
// for every decoded type) into a small RGBA buffer.
func reduce(img image.Image, w, h int) image.Image {
	b := img.Bounds()
	kx, ky := max(1, b.Dx()/w), max(1, b.Dy()/h)
	if kx < 2 && ky < 2 {
		return img
	}
	ow, oh := (b.Dx()+kx-1)/kx, (b.Dy()+ky-1)/ky
	dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
	// Blocks of rows, cut in columns so the buffer stays near 1 MP.
	cols := max(1, (1<<20)/(kx*ky)) * kx
	buf := image.NewRGBA(image.Rect(0, 0, min(cols, b.Dx()), ky))
	sums := make([]uint64, 4*ow)
	counts := make([]uint64, ow)
	for oy := 0; oy < oh; oy++ {
		y0 := b.Min.Y + oy*ky
		rows := min(ky, b.Max.Y-y0)
		clear(sums)
		clear(counts)
		for x0 := b.Min.X; x0 < b.Max.X; x0 += cols {
			n := min(cols, b.Max.X-x0)
			draw.Draw(buf, image.Rect(0, 0, n, rows), img, image.Pt(x0, y0), draw.Src)
			for y := 0; y < rows; y++ {
				row := buf.Pix[y*buf.Stride : y*buf.Stride+4*n]
				for x := 0; x < n; x++ {
					ox := (x0 - b.Min.X + x) / kx
					p := row[4*x : 4*x+4]
					s := sums[4*ox : 4*ox+4]
					s[0] += uint64(p[0])
					s[1] += uint64(p[1])
					s[2] += uint64(p[2])
					s[3] += uint64(p[3])
					counts[ox]++
				}
			}
		}
		row := dst.Pix[oy*dst.Stride:]
		for ox := 0; ox < ow; ox++ {
			c := counts[ox]
			for i := 0; i < 4; i++ {
				row[4*ox+i] = uint8((sums[4*ox+i] + c/2) / c)
			}
		}
	}
	return dst
}
