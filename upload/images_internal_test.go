package upload

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// memStore is the least FileStore: these tests are about the pixel gate.
type memStore struct {
	mu sync.Mutex
	n  int64
}

func (m *memStore) CreateFile(_ context.Context, r *FileRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	r.ID = m.n
	return nil
}
func (m *memStore) File(context.Context, int64) (*FileRecord, error)      { return nil, nil }
func (m *memStore) Files(context.Context, []int64) ([]*FileRecord, error) { return nil, nil }
func (m *memStore) UpdateFile(context.Context, int64, FileUpdate) error   { return nil }
func (m *memStore) DeleteFile(context.Context, int64) error               { return nil }
func (m *memStore) ReplaceFile(context.Context, *FileRecord) error        { return nil }
func (m *memStore) FilePage(context.Context, int, int, string) ([]*FileRecord, int64, error) {
	return nil, 0, nil
}

func solidPNG(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+3] = 200, 255
	}
	img.Set(0, 0, color.NRGBA{0, 0, 255, 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// watchPixels counts the pixels in the gate while a test runs and returns
// the peak; hold, when set, runs while an image holds its pixels.
func watchPixels(t *testing.T, hold func()) *atomic.Int64 {
	var cur, peak atomic.Int64
	testHookPixels = func(d int64) {
		n := cur.Add(d)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		if d > 0 && hold != nil {
			hold()
		}
	}
	t.Cleanup(func() { testHookPixels = nil })
	return &peak
}

// TestPixelGate: concurrent uploads never have more pixels in work than
// MaxConcurrentPixels; the others wait and then all complete.
func TestPixelGate(t *testing.T) {
	body := solidPNG(1000, 800) // 0.8 MP
	s, err := New(t.Context(), &memStore{}, Config{Dir: t.TempDir(), MaxConcurrentPixels: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	peak := watchPixels(t, func() { time.Sleep(20 * time.Millisecond) })
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Go(func() {
			_, err := s.Save(t.Context(), "a.png", body, FileInfo{})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if p := peak.Load(); p != 1_600_000 {
		t.Fatalf("peak pixels in work: %d, want two images (1600000) at most and at once", p)
	}
}

// TestPixelGateCancel: a request waiting for the gate gives up when its
// context ends, leaving nothing on disk; an image larger than the whole
// gate still runs (alone).
func TestPixelGateCancel(t *testing.T) {
	dir := t.TempDir()
	s, err := New(t.Context(), &memStore{}, Config{Dir: dir, MaxConcurrentPixels: 500_000})
	if err != nil {
		t.Fatal(err)
	}
	entered, leave := make(chan struct{}), make(chan struct{})
	var once sync.Once
	peak := watchPixels(t, func() { once.Do(func() { close(entered); <-leave }) })
	done := make(chan error)
	go func() {
		_, err := s.Save(context.Background(), "big.png", solidPNG(1000, 800), FileInfo{})
		done <- err
	}()
	<-entered // the first upload holds the whole gate
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.Save(ctx, "waits.png", solidPNG(300, 300), FileInfo{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting upload: %v, want its context's error", err)
	}
	close(leave)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p != 500_000 {
		t.Fatalf("peak %d: an image over the gate takes all of it", p)
	}
	names, _ := os.ReadDir(dir)
	for _, n := range names {
		if filepath.Ext(n.Name()) == ".png" && len(n.Name()) > 5 && n.Name()[:5] == "waits" {
			t.Fatalf("left behind by the cancelled upload: %s", n.Name())
		}
	}
}

func (m *memStore) FileID(context.Context, string) (int64, error) { return 0, nil }
