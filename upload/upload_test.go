package upload_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/upload"
)

// memFiles is a FileStore in memory: these tests are about the files on
// disk and the records made, not the database (store's tests and the HTTP
// tests cover that).
type memFiles struct {
	mu        sync.Mutex
	rows      map[int64]upload.FileRecord
	next      int64
	failWrite error
	// failReplace, when set, is what ReplaceFile answers.
	failReplace error
}

func (m *memFiles) CreateFile(_ context.Context, r *upload.FileRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failWrite != nil {
		return m.failWrite
	}
	m.next++
	r.ID = m.next
	m.rows[r.ID] = *r
	return nil
}

func (m *memFiles) File(_ context.Context, id int64) (*upload.FileRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rows[id]
	if !ok {
		return nil, nil
	}
	return &r, nil
}

// FilePage is not used by these tests (the admin's paged library is tested
// over the real store, in rest).
func (m *memFiles) FilePage(context.Context, int, int, string) ([]*upload.FileRecord, int64, error) {
	return nil, 0, nil
}

func (m *memFiles) Files(_ context.Context, ids []int64) ([]*upload.FileRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*upload.FileRecord
	for id, r := range m.rows {
		if ids == nil || containsID(ids, id) {
			out = append(out, &r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func (m *memFiles) UpdateFile(_ context.Context, id int64, u upload.FileUpdate) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.rows[id]
	if u.Name != nil {
		r.Name = *u.Name
	}
	if u.AlternativeText != nil {
		r.AlternativeText = u.AlternativeText
	}
	if u.Caption != nil {
		r.Caption = u.Caption
	}
	r.UpdatedAt = u.UpdatedAt
	m.rows[id] = r
	return nil
}

func (m *memFiles) ReplaceFile(_ context.Context, r *upload.FileRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failReplace != nil {
		return m.failReplace
	}
	if _, ok := m.rows[r.ID]; !ok {
		return errors.New("no such file")
	}
	m.rows[r.ID] = *r
	return nil
}

func (m *memFiles) DeleteFile(_ context.Context, id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.rows, id)
	return nil
}

// newService is a media library over a fresh folder inside a parent
// folder, so tests can check nothing is written beside it.
func newService(t *testing.T, breakpoints map[string]int) (*upload.Service, *memFiles, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "uploads")
	m := &memFiles{rows: map[int64]upload.FileRecord{}}
	s, err := upload.New(t.Context(), m, upload.Config{Dir: dir, Breakpoints: breakpoints})
	if err != nil {
		t.Fatal(err)
	}
	return s, m, dir
}

func picture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, x%h, color.RGBA{200, 30, 30, 255})
	}
	return img
}

func pngOf(w, h int) []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, picture(w, h))
	return b.Bytes()
}

// listDir lists a folder's file names, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func kindOf(err error) errs.Kind {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return -1
}

var hashRe = regexp.MustCompile(`^sunset_photo_[0-9a-f]{10}$`)

// TestSaveUnderGeneratedName: the bytes are written under a name made
// from a slug of the client's name and random hex, with the extension
// lower-cased; the client's name is only kept as the record's name.
func TestSaveUnderGeneratedName(t *testing.T) {
	s, m, dir := newService(t, map[string]int{})
	body := pngOf(20, 10)
	f, err := s.Save(t.Context(), "../../Sunset Photo.PNG", body, upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if !hashRe.MatchString(f.Hash) || f.Ext != ".png" || f.URL != "/uploads/"+f.Hash+".png" || f.Name != "Sunset Photo.PNG" {
		t.Fatalf("file: %+v", f)
	}
	if got, err := os.ReadFile(filepath.Join(dir, f.Hash+f.Ext)); err != nil || !bytes.Equal(got, body) {
		t.Fatalf("stored bytes: %v", err)
	}
	if names := listDir(t, dir); len(names) != 1 {
		t.Fatalf("folder: %v", names)
	}
	if names := listDir(t, filepath.Dir(dir)); len(names) != 1 || names[0] != "uploads" {
		t.Fatalf("written beside the folder: %v", names)
	}
	if r := m.rows[f.ID]; r.Hash != f.Hash || r.Size != math.Round(float64(len(body))/10)/100 || f.Size != r.Size || r.DocumentID == "" || r.CreatedAt.IsZero() {
		t.Fatalf("record (size in kB, two decimals): %+v (body %d bytes)", r, len(body))
	}

	// The same name twice is two files; fileInfo's name is the record's.
	g, err := s.Save(t.Context(), "Sunset Photo.png", body, upload.FileInfo{Name: "Evening"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Hash == f.Hash || g.Name != "Evening" || g.ID == f.ID {
		t.Fatalf("second file: %+v", g)
	}
	// An extension that is not short and alphanumeric is dropped; a name
	// with nothing readable gets "file"; backslashes are separators.
	h, err := s.Save(t.Context(), `..\..\€€€.p$p`, []byte("x"), upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Ext != "" || !regexp.MustCompile(`^file_[0-9a-f]{10}$`).MatchString(h.Hash) || h.Name != "€€€.p$p" {
		t.Fatalf("odd name: %+v", h)
	}
	if _, err := s.Save(t.Context(), "empty.txt", nil, upload.FileInfo{}); kindOf(err) != errs.KindValidation {
		t.Fatalf("empty file: %v", err)
	}
}

// TestTypeFromBytes: the MIME type is sniffed from the content; what the
// name says does not count.
func TestTypeFromBytes(t *testing.T) {
	s, _, _ := newService(t, map[string]int{})
	f, err := s.Save(t.Context(), "photo.png", []byte("just some text\n"), upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Mime != "text/plain" || f.Width != nil || string(f.Formats) != "null" {
		t.Fatalf("text named .png: %+v", f)
	}
	g, err := s.Save(t.Context(), "notes.txt", pngOf(30, 20), upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Mime != "image/png" || g.Width == nil || *g.Width != 30 || *g.Height != 20 {
		t.Fatalf("PNG named .txt: %+v", g)
	}
	// Bytes that look like a PNG but are not one are kept as a plain file.
	h, err := s.Save(t.Context(), "broken.png", append([]byte("\x89PNG\r\n\x1a\n"), 1, 2, 3), upload.FileInfo{})
	if err != nil || h.Mime != "image/png" || h.Width != nil {
		t.Fatalf("broken PNG: %+v %v", h, err)
	}
}

type wantFormat struct{ w, h int }

func checkFormats(t *testing.T, dir string, f *upload.File, want map[string]wantFormat, decode func(io.Reader) (image.Image, error)) {
	t.Helper()
	var formats map[string]struct {
		Name, Hash, Ext, Mime, URL string
		Width, Height, SizeInBytes int
	}
	if err := json.Unmarshal(f.Formats, &formats); err != nil {
		t.Fatalf("formats %s: %v", f.Formats, err)
	}
	if len(formats) != len(want) {
		t.Fatalf("formats: %s, want %v", f.Formats, want)
	}
	for key, wf := range want {
		got, ok := formats[key]
		if !ok || got.Width != wf.w || got.Height != wf.h || got.Hash != key+"_"+f.Hash || got.Ext != f.Ext ||
			got.Mime != f.Mime || got.URL != "/uploads/"+got.Hash+got.Ext || got.Name != key+"_"+f.Name {
			t.Fatalf("format %s: %+v, want %v", key, got, wf)
		}
		b, err := os.ReadFile(filepath.Join(dir, got.Hash+got.Ext))
		if err != nil || len(b) != got.SizeInBytes {
			t.Fatalf("format %s on disk: %v (%d bytes, said %d)", key, err, len(b), got.SizeInBytes)
		}
		img, err := decode(bytes.NewReader(b))
		if err != nil || img.Bounds().Dx() != wf.w || img.Bounds().Dy() != wf.h {
			t.Fatalf("format %s is not a %dx%d image in the original's format: %v", key, wf.w, wf.h, err)
		}
	}
}

// TestImageFormats: width and height are recorded; a thumbnail (inside
// 245×156) is made when the image is larger, and a format per breakpoint
// the image exceeds, in the original's encoding.
func TestImageFormats(t *testing.T) {
	t.Run("breakpoints", func(t *testing.T) {
		s, _, dir := newService(t, map[string]int{"wide": 400, "huge": 2000})
		f, err := s.Save(t.Context(), "tall.png", pngOf(300, 600), upload.FileInfo{})
		if err != nil {
			t.Fatal(err)
		}
		if *f.Width != 300 || *f.Height != 600 {
			t.Fatalf("size: %dx%d", *f.Width, *f.Height)
		}
		// Scaled to fit the box, ratio kept: 300×600 inside 400×400 is 200×400.
		checkFormats(t, dir, f, map[string]wantFormat{"thumbnail": {78, 156}, "wide": {200, 400}}, png.Decode)
		if n := len(listDir(t, dir)); n != 3 {
			t.Fatalf("%d files, want the original and 2 formats", n)
		}
	})
	t.Run("defaults", func(t *testing.T) {
		s, _, dir := newService(t, nil)
		var b bytes.Buffer
		_ = jpeg.Encode(&b, picture(800, 600), nil)
		f, err := s.Save(t.Context(), "photo.jpg", b.Bytes(), upload.FileInfo{})
		if err != nil {
			t.Fatal(err)
		}
		// Default breakpoints are large 1000, medium 750, small 500.
		checkFormats(t, dir, f, map[string]wantFormat{"thumbnail": {208, 156}, "medium": {750, 563}, "small": {500, 375}}, jpeg.Decode)
	})
	t.Run("gif", func(t *testing.T) {
		s, _, dir := newService(t, map[string]int{})
		var b bytes.Buffer
		_ = gif.Encode(&b, picture(490, 156), nil)
		f, err := s.Save(t.Context(), "anim.gif", b.Bytes(), upload.FileInfo{})
		if err != nil {
			t.Fatal(err)
		}
		checkFormats(t, dir, f, map[string]wantFormat{"thumbnail": {245, 78}}, gif.Decode)
	})
	t.Run("small image", func(t *testing.T) {
		s, _, dir := newService(t, nil)
		f, err := s.Save(t.Context(), "icon.png", pngOf(245, 156), upload.FileInfo{})
		if err != nil {
			t.Fatal(err)
		}
		if string(f.Formats) != "null" || *f.Width != 245 {
			t.Fatalf("an image within every box has no formats: %s", f.Formats)
		}
		if n := len(listDir(t, dir)); n != 1 {
			t.Fatalf("%d files", n)
		}
	})
}

// pngHeader is the start of a PNG claiming w×h pixels: enough for the
// size check, nothing to decode.
func pngHeader(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk := append([]byte("IHDR"), ihdr...)
	out := []byte("\x89PNG\r\n\x1a\n")
	out = binary.BigEndian.AppendUint32(out, 13)
	out = append(out, chunk...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
}

// TestMegapixelCap: an image claiming more than 40 megapixels is refused
// from its header, before any decoding (a broken body that were decoded
// would only make it a plain file), and leaves nothing behind.
func TestMegapixelCap(t *testing.T) {
	s, m, dir := newService(t, nil)
	_, err := s.Save(t.Context(), "bomb.png", pngHeader(8000, 8000), upload.FileInfo{})
	if kindOf(err) != errs.KindValidation {
		t.Fatalf("64 MP image: %v", err)
	}
	if names := listDir(t, dir); len(names) != 0 || len(m.rows) != 0 {
		t.Fatalf("left behind: %v %v", names, m.rows)
	}
	// Just under the cap, the same header is a (broken) plain file.
	f, err := s.Save(t.Context(), "big.png", pngHeader(8000, 5000), upload.FileInfo{})
	if err != nil || f.Width != nil {
		t.Fatalf("40 MP header: %+v %v", f, err)
	}
}

// TestSaveFailureCleansUp: when the record cannot be written, the files
// written for it are removed.
func TestSaveFailureCleansUp(t *testing.T) {
	s, m, dir := newService(t, nil)
	m.failWrite = errors.New("database down")
	if _, err := s.Save(t.Context(), "photo.png", pngOf(1200, 800), upload.FileInfo{}); err == nil {
		t.Fatal("saved without a record")
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("left behind: %v", names)
	}
}

// TestDelete removes the record, the file and every format.
func TestDelete(t *testing.T) {
	s, m, dir := newService(t, nil)
	keep, err := s.Save(t.Context(), "keep.txt", []byte("keep"), upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.Save(t.Context(), "photo.png", pngOf(1200, 800), upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(listDir(t, dir)); n != 6 {
		t.Fatalf("%d files, want 2 originals and 4 formats", n)
	}
	got, err := s.Delete(t.Context(), f.ID)
	if err != nil || got.ID != f.ID {
		t.Fatalf("delete: %+v %v", got, err)
	}
	if names := listDir(t, dir); len(names) != 1 || names[0] != keep.Hash+keep.Ext {
		t.Fatalf("after delete: %v", names)
	}
	if _, ok := m.rows[f.ID]; ok {
		t.Fatal("record kept")
	}
	if _, err := s.Get(t.Context(), f.ID); kindOf(err) != errs.KindNotFound {
		t.Fatalf("get deleted: %v", err)
	}
	if _, err := s.Delete(t.Context(), f.ID); kindOf(err) != errs.KindNotFound {
		t.Fatalf("delete twice: %v", err)
	}
}

// TestDeleteStaysInside: names read back from records are reduced to
// their base name, so a record that says "../x" (written by hand, or by
// an older version) cannot remove a file outside the folder.
func TestDeleteStaysInside(t *testing.T) {
	s, m, dir := newService(t, nil)
	victim := filepath.Join(filepath.Dir(dir), "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	formats := `{"thumbnail":{"hash":"../victim","ext":".txt"},"small":{"hash":"../../etc/passwd","ext":""}}`
	m.rows[1] = upload.FileRecord{ID: 1, Hash: "../victim", Ext: ".txt", Formats: &formats}
	if _, err := s.Delete(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("a file outside the folder was removed: %v", err)
	}
}

// TestUpdateAndFiles: Update changes only what it is given; Files answers
// the engine's media lookups with the API objects of the ids that exist.
func TestUpdateAndFiles(t *testing.T) {
	s, _, _ := newService(t, nil)
	alt := "A red line"
	f, err := s.Save(t.Context(), "line.png", pngOf(20, 20), upload.FileInfo{AlternativeText: &alt})
	if err != nil {
		t.Fatal(err)
	}
	caption := "Caption"
	u, err := s.Update(t.Context(), f.ID, upload.FileInfo{Caption: &caption})
	if err != nil {
		t.Fatal(err)
	}
	if u.Name != "line.png" || u.AlternativeText == nil || *u.AlternativeText != alt || u.Caption == nil || *u.Caption != caption {
		t.Fatalf("updated: %+v", u)
	}
	if _, err := s.Update(t.Context(), 99, upload.FileInfo{Caption: &caption}); kindOf(err) != errs.KindNotFound {
		t.Fatalf("update unknown: %v", err)
	}
	got, err := s.Files(t.Context(), []int64{f.ID, 99})
	if err != nil || len(got) != 1 {
		t.Fatalf("files: %v %v", got, err)
	}
	var obj map[string]any
	if err := json.Unmarshal(got[f.ID], &obj); err != nil || obj["caption"] != caption || obj["provider"] != "local" || obj["width"] != 20.0 {
		t.Fatalf("file object: %s %v", got[f.ID], err)
	}
	if none, err := s.Files(t.Context(), nil); err != nil || len(none) != 0 {
		t.Fatalf("no ids: %v %v", none, err)
	}
	list, err := s.List(t.Context())
	if err != nil || len(list) != 1 || list[0].ID != f.ID {
		t.Fatalf("list: %v %v", list, err)
	}
}

// TestResizeMemory: making the formats of a large image allocates little
// beyond the decoded image itself. The scaler's buffer is its
// destination's width times its source's height; scaling every format
// from the full-size image took over 7× the decoded image here (buffers of
// 96, 72, 48 and 15 MB for 36 MB of pixels); from one reduced copy it is
// about 3.5× in all (the buffers are 32, 24, 16 and 5 MB).
func TestResizeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates ~120 MB")
	}
	s, _, _ := newService(t, nil)
	body := pngOf(3000, 3000)
	decoded := uint64(3000 * 3000 * 4)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, err := s.Save(t.Context(), "big.png", body, upload.FileInfo{})
	runtime.ReadMemStats(&after)
	if err != nil || f.Width == nil || *f.Width != 3000 {
		t.Fatalf("save: %+v %v", f, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*decoded {
		t.Fatalf("allocated %d MB for a %d MB image", got>>20, decoded>>20)
	}
	var formats map[string]struct{ Width, Height int }
	if err := json.Unmarshal(f.Formats, &formats); err != nil || formats["large"].Width != 1000 || formats["thumbnail"].Height != 156 {
		t.Fatalf("formats: %s", f.Formats)
	}
}

// TestReducedFormatsLookRight: formats made through the reduced copy keep
// the image: a picture of four coloured quadrants still has them.
func TestReducedFormatsLookRight(t *testing.T) {
	s, _, dir := newService(t, map[string]int{"small": 500})
	img := image.NewRGBA(image.Rect(0, 0, 2400, 1600))
	quad := []color.RGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255}}
	for y := 0; y < 1600; y++ {
		for x := 0; x < 2400; x++ {
			img.SetRGBA(x, y, quad[(y/800)*2+x/1200])
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	f, err := s.Save(t.Context(), "quads.png", b.Bytes(), upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	checkFormats(t, dir, f, map[string]wantFormat{"thumbnail": {234, 156}, "small": {500, 333}}, png.Decode)
	small, err := os.ReadFile(filepath.Join(dir, "small_"+f.Hash+".png"))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := png.Decode(bytes.NewReader(small))
	for i, p := range []image.Point{{60, 40}, {440, 40}, {60, 290}, {440, 290}} {
		r, g, bl, _ := got.At(p.X, p.Y).RGBA()
		want := quad[i]
		if uint8(r>>8) != want.R || uint8(g>>8) != want.G || uint8(bl>>8) != want.B {
			t.Errorf("quadrant %d at %v: %d,%d,%d want %v", i, p, r>>8, g>>8, bl>>8, want)
		}
	}
}

// TestTypeLists: uploads are checked against the type sniffed from their
// bytes: a denied type, or one the allow list does not name, is a
// validation error naming it, and nothing is written.
func TestTypeLists(t *testing.T) {
	html := []byte("<!doctype html><html><script>alert(1)</script></html>")
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
	pdf := []byte("%PDF-1.4\n%…")
	cases := []struct {
		allowed, denied []string
		name            string
		body            []byte
		ok              bool
	}{
		{nil, nil, "page.html", html, true},
		{nil, []string{"text/html", "image/svg+xml"}, "page.html", html, false},
		{nil, []string{"text/html", "image/svg+xml"}, "logo.svg", svg, false},
		{nil, []string{"text/html", "image/svg+xml"}, "a.png", pngOf(4, 4), true},
		{[]string{"image/*", "application/pdf"}, nil, "a.png", pngOf(4, 4), true},
		{[]string{"image/*", "application/pdf"}, nil, "doc.pdf", pdf, true},
		{[]string{"image/*", "application/pdf"}, nil, "page.png", html, false}, // the name does not count
		{[]string{"IMAGE/*"}, []string{"image/svg+xml"}, "logo.svg", svg, false},
		{[]string{"*"}, nil, "page.html", html, true},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "uploads")
		m := &memFiles{rows: map[int64]upload.FileRecord{}}
		s, err := upload.New(t.Context(), m, upload.Config{Dir: dir, AllowedTypes: c.allowed, DeniedTypes: c.denied})
		if err != nil {
			t.Fatal(err)
		}
		f, err := s.Save(t.Context(), c.name, c.body, upload.FileInfo{})
		if c.ok != (err == nil) {
			t.Errorf("allow %v deny %v %s: %+v %v", c.allowed, c.denied, c.name, f, err)
			continue
		}
		if !c.ok {
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.KindValidation || !regexp.MustCompile(`type (text/html|image/svg\+xml)`).MatchString(e.Message) {
				t.Errorf("%s: %v", c.name, err)
			}
			if names := listDir(t, dir); len(names) != 0 || len(m.rows) != 0 {
				t.Errorf("%s left behind: %v", c.name, names)
			}
		}
	}
	// SVG is told apart from XML and text, so lists can name it.
	s, _, _ := newService(t, nil)
	if f, err := s.Save(t.Context(), "logo.svg", svg, upload.FileInfo{}); err != nil || f.Mime != "image/svg+xml" {
		t.Fatalf("svg: %+v %v", f, err)
	}
}

func (m *memFiles) FileID(context.Context, string) (int64, error) { return 0, nil }
