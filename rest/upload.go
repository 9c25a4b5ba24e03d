package rest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/upload"
)

// uploadRoutes serves the media library with Strapi's unwrapped shapes:
// POST /api/upload (multipart "files") answers an array, the files
// endpoints plain objects; stored files are served under /uploads.
func (s *Server) uploadRoutes(ec *echo.Echo, g *echo.Group) {
	up := s.cfg.Uploads
	g.POST("/upload", s.uploadFiles)
	g.GET("/upload/files", s.listFiles)
	g.GET("/upload/files/:id", s.fileHandler(upload.ActionFindOne, up.Get, http.StatusOK))
	g.DELETE("/upload/files/:id", s.fileHandler(upload.ActionDestroy, up.Delete, http.StatusOK))
	// Files are public by URL, as with Strapi's local provider; the folder
	// holds generated names only. No file may act as a page of the site.
	// Files kept elsewhere (S3) are read from there: nothing is served.
	if dir := up.LocalDir(); dir != "" {
		ec.GET("/uploads*", echo.StaticDirectoryHandler(echo.MustSubFS(ec.Filesystem, dir), !ec.EnablePathUnescapingStaticFiles), inertFiles)
	}
}

// GET /api/upload/files: the files, as an array: every file unless the
// query pages it, with the content API's filters, sort and fields (the
// engine reads them; the read budget bounds an unpaged list).
func (s *Server) listFiles(c echo.Context) error {
	if err := can(c, upload.ActionFind); err != nil {
		return err
	}
	q, err := s.query(c)
	if err != nil {
		return err
	}
	docs, err := s.engine.FindSystem(c.Request().Context(), principal(c), models.FileUID, q)
	if err != nil {
		return err
	}
	b := []byte{'['}
	for i, d := range docs {
		if i > 0 {
			b = append(b, ',')
		}
		b = d.AppendJSON(b, engine.FormatV5)
	}
	return c.JSONBlob(http.StatusOK, append(b, ']'))
}

// inertFiles serves uploads so that none can run script as the API's
// origin: the type is never sniffed, a sandbox CSP forbids scripts and
// plugins wherever the file is opened, and the types a browser renders as
// a document (HTML, SVG, XML, PDF, ...) are downloaded, not shown.
func inertFiles(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox")
		h.Set("Cross-Origin-Resource-Policy", "cross-origin")
		if !inlineSafe(mime.TypeByExtension(path.Ext(c.Request().URL.Path))) {
			h.Set("Content-Disposition", "attachment")
		}
		return next(c)
	}
}

// inlineSafe lists the types shown in place: images other than SVG, audio,
// video and plain text. Everything else is an attachment.
func inlineSafe(typ string) bool {
	t, _, _ := strings.Cut(strings.ToLower(typ), ";")
	switch {
	case t == "image/svg+xml":
		return false
	case strings.HasPrefix(t, "image/"), strings.HasPrefix(t, "audio/"), strings.HasPrefix(t, "video/"):
		return true
	}
	return t == "text/plain"
}

func (s *Server) fileHandler(action string, fn func(ctx context.Context, id int64) (*upload.File, error), status int) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := can(c, action); err != nil {
			return err
		}
		id, err := strconv.ParseInt(c.Param("id"), 10, 64)
		if err != nil || id <= 0 {
			return &errs.Error{Kind: errs.KindNotFound, Message: "file.notFound"}
		}
		f, err := fn(c.Request().Context(), id)
		if err != nil {
			return err
		}
		return c.JSON(status, f)
	}
}

// POST /api/upload: multipart "files" (one or many) with an optional
// "fileInfo" (JSON, an array for several files); with ?id= and no files it
// updates that file's information.
func (s *Server) uploadFiles(c echo.Context) error {
	if err := can(c, upload.ActionUpload); err != nil {
		return err
	}
	up := s.cfg.Uploads
	r := c.Request()
	r.Body = http.MaxBytesReader(c.Response(), r.Body, up.MaxBytes())
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &errs.Error{Kind: errs.KindPayloadTooLarge, Message: "FileTooBig"}
		}
		return errs.Errorf(errs.KindValidation, "Send the files as multipart/form-data with the field \"files\"")
	}
	defer r.MultipartForm.RemoveAll()
	headers := r.MultipartForm.File["files"]
	infos, err := fileInfos(r.MultipartForm.Value["fileInfo"])
	if err != nil {
		return err
	}
	if id := c.QueryParam("id"); id != "" && len(headers) == 1 {
		// A file with ?id= replaces that file's bytes (same id).
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return &errs.Error{Kind: errs.KindNotFound, Message: "file.notFound"}
		}
		body, err := readPart(headers[0])
		if err != nil {
			return err
		}
		info := upload.FileInfo{}
		if len(infos) > 0 {
			info = infos[0]
		}
		f, err := up.Replace(r.Context(), n, headers[0].Filename, body, info)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, f)
	}
	if id := c.QueryParam("id"); id != "" && len(headers) == 0 {
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return &errs.Error{Kind: errs.KindNotFound, Message: "file.notFound"}
		}
		info := upload.FileInfo{}
		if len(infos) > 0 {
			info = infos[0]
		}
		f, err := up.Update(r.Context(), n, info)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, f)
	}
	if len(headers) == 0 {
		return errs.Errorf(errs.KindValidation, "Files are empty")
	}
	target, err := s.attachment(c, authPrincipal(c), r.MultipartForm.Value)
	if err != nil {
		return err
	}
	out := make([]*upload.File, 0, len(headers))
	for i, h := range headers {
		body, err := readPart(h)
		if err != nil {
			return err
		}
		info := upload.FileInfo{}
		if i < len(infos) {
			info = infos[i]
		}
		f, err := up.Save(r.Context(), h.Filename, body, info)
		if err != nil {
			return err
		}
		out = append(out, f)
	}
	if target != nil {
		if err := s.attach(r.Context(), authPrincipal(c), target, out); err != nil {
			return err
		}
	}
	return c.JSON(http.StatusCreated, out)
}

func readPart(h *multipart.FileHeader) ([]byte, error) {
	f, err := h.Open()
	if err != nil {
		return nil, errs.Errorf(errs.KindValidation, "could not read file %q", h.Filename)
	}
	defer f.Close()
	body, err := io.ReadAll(f)
	if err != nil {
		return nil, errs.Errorf(errs.KindValidation, "could not read file %q", h.Filename)
	}
	return body, nil
}

// fileInfos reads fileInfo: one JSON object, or an array, or one per part.
func fileInfos(values []string) ([]upload.FileInfo, error) {
	var out []upload.FileInfo
	for _, v := range values {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if strings.HasPrefix(v, "[") {
			var list []upload.FileInfo
			if err := json.Unmarshal([]byte(v), &list); err != nil {
				return nil, errs.Errorf(errs.KindValidation, "fileInfo must be JSON: %v", err)
			}
			out = append(out, list...)
			continue
		}
		var one upload.FileInfo
		if err := json.Unmarshal([]byte(v), &one); err != nil {
			return nil, errs.Errorf(errs.KindValidation, "fileInfo must be JSON: %v", err)
		}
		out = append(out, one)
	}
	return out, nil
}
