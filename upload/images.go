package upload

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"sort"

	"golang.org/x/image/draw"

	"github.com/stratum-cms/stratum/engine"
)

var errNotImage = errors.New("not an image")

// maxPixels refuses images whose decoding would take too much memory
// (a small file can claim enormous dimensions).
const maxPixels = 40_000_000

// decodeImage decodes JPEG, PNG and GIF images after checking their size.
func decodeImage(body []byte, mime string) (image.Image, error) {
	switch mime {
	case "image/jpeg", "image/png", "image/gif":
	default:
		return nil, errNotImage
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
	if err != nil {
		return nil, errNotImage
	}
	if cfg.Width*cfg.Height > maxPixels {
		return nil, engine.Errorf(engine.KindValidation, "Image of %d×%d pixels is too large", cfg.Width, cfg.Height)
	}
	img, _, err := image.Decode(bytes.NewReader(body))
	if err != nil {
		return nil, errNotImage
	}
	return img, nil
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

// formats makes Strapi's image formats: a thumbnail (inside 245×156) when
// the image is larger, and each breakpoint (inside N×N) the image exceeds.
func (s *Service) formats(img image.Image, name, hash, ext, mime string) (*string, []string, error) {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	type target struct {
		key  string
		w, h int
	}
	var targets []target
	if w > 245 || h > 156 {
		targets = append(targets, target{"thumbnail", 245, 156})
	}
	keys := make([]string, 0, len(s.cfg.Breakpoints))
	for k := range s.cfg.Breakpoints {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		n := s.cfg.Breakpoints[k]
		if w > n || h > n {
			targets = append(targets, target{k, n, n})
		}
	}
	if len(targets) == 0 {
		return nil, nil, nil
	}
	out := map[string]format{}
	var files []string
	for _, t := range targets {
		scale := min(float64(t.w)/float64(w), float64(t.h)/float64(h))
		fw, fh := max(1, int(float64(w)*scale+0.5)), max(1, int(float64(h)*scale+0.5))
		dst := image.NewRGBA(image.Rect(0, 0, fw, fh))
		draw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Over, nil)
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
			return nil, files, err
		}
		fhash := t.key + "_" + hash
		if err := os.WriteFile(filepath.Join(s.cfg.Dir, fhash+ext), buf.Bytes(), 0o644); err != nil {
			return nil, files, err
		}
		files = append(files, fhash+ext)
		out[t.key] = format{Name: t.key + "_" + name, Hash: fhash, Ext: ext, Mime: mime, Width: fw, Height: fh,
			Size: kb(buf.Len()), SizeInBytes: buf.Len(), URL: "/uploads/" + fhash + ext}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, files, err
	}
	str := string(b)
	return &str, files, nil
}
