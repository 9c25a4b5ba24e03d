package graphql

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/graphql/gqlschema"
	"github.com/stratum-cms/stratum/upload"
)

// multipart serves the GraphQL multipart request specification (as
// graphql-upload reads it for Strapi): multipart/form-data with an
// `operations` field (the JSON request), a `map` field ({"0":
// ["variables.file"]}) and the files as parts named by the map's keys.
// The caller must be allowed to upload before the body is read, and the
// body is bounded by the media library's size limit.
func (s *Server) multipart(w http.ResponseWriter, r *http.Request) {
	principal, err := s.authn.Authenticate(r)
	if err != nil {
		writeRESTError(w, errs.From(err))
		return
	}
	if !principal.Can(upload.ActionUpload) {
		writeErrors(w, http.StatusForbidden, requestError("FORBIDDEN", "Forbidden access: a multipart request uploads files", nil))
		return
	}
	max := s.cfg.Uploads.MaxBytes() + s.cfg.maxBody()
	r.Body = http.MaxBytesReader(w, r.Body, max)
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeErrors(w, http.StatusRequestEntityTooLarge, requestError(codeTooLarge, fmt.Sprintf("Request body too large: the limit is %d bytes", max), nil))
			return
		}
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "Could not read the multipart request", nil))
		return
	}
	defer r.MultipartForm.RemoveAll()
	form := r.MultipartForm
	if len(form.Value["operations"]) != 1 || len(form.Value["map"]) != 1 {
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "A multipart request needs one `operations` field and one `map` field", nil))
		return
	}
	var p params
	ops := strings.TrimSpace(form.Value["operations"][0])
	if strings.HasPrefix(ops, "[") {
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "Batched operations cannot upload files: send one operation", nil))
		return
	}
	if err := json.Unmarshal([]byte(ops), &p); err != nil {
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "`operations` is not a JSON object: "+err.Error(), nil))
		return
	}
	var fileMap map[string][]string
	if err := json.Unmarshal([]byte(form.Value["map"][0]), &fileMap); err != nil {
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "`map` is not a JSON object of paths: "+err.Error(), nil))
		return
	}
	p.uploads = map[string]*gqlschema.Upload{}
	for key, paths := range fileMap {
		parts := form.File[key]
		if len(parts) != 1 {
			writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, fmt.Sprintf("`map` names the file %q, which the request does not hold", key), nil))
			return
		}
		if parts[0].Size > s.cfg.Uploads.MaxBytes() {
			writeErrors(w, http.StatusRequestEntityTooLarge, requestError(codeTooLarge,
				fmt.Sprintf("File %q is too large: the limit is %d bytes", parts[0].Filename, s.cfg.Uploads.MaxBytes()), nil))
			return
		}
		for _, path := range paths {
			p.uploads[path] = &gqlschema.Upload{Filename: parts[0].Filename, Header: parts[0]}
		}
	}
	s.run(w, r, &p, principal)
}

// placeUploads puts each file at its path ("variables.file",
// "variables.files.0") in both copies of the variables.
func placeUploads(uploads map[string]*gqlschema.Upload, copies ...map[string]any) error {
	for path, u := range uploads {
		steps := strings.Split(path, ".")
		if len(steps) < 2 || steps[0] != "variables" {
			return fmt.Errorf("`map` path %q must start with variables.", path)
		}
		for _, vars := range copies {
			if vars == nil {
				return fmt.Errorf("`map` path %q names a variable the operation does not send", path)
			}
			if err := place(vars, steps[1:], u); err != nil {
				return fmt.Errorf("`map` path %q: %v", path, err)
			}
		}
	}
	return nil
}

func place(container any, steps []string, u *gqlschema.Upload) error {
	step, last := steps[0], len(steps) == 1
	switch c := container.(type) {
	case map[string]any:
		v, ok := c[step]
		if !ok {
			return errors.New("no such variable")
		}
		if last {
			if v != nil {
				return errors.New("the variable must be null in operations")
			}
			c[step] = u
			return nil
		}
		return place(v, steps[1:], u)
	case []any:
		i, err := strconv.Atoi(step)
		if err != nil || i < 0 || i >= len(c) {
			return errors.New("no such list item")
		}
		if last {
			if c[i] != nil {
				return errors.New("the item must be null in operations")
			}
			c[i] = u
			return nil
		}
		return place(c[i], steps[1:], u)
	}
	return errors.New("no such variable")
}
