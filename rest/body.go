package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
)

// maxJSONDepth bounds nesting in bodies: deep enough for any real document
// (blocks, components in components), shallow enough to cost nothing.
const maxJSONDepth = 64

func syntaxError(msg string) *errs.Error {
	return &errs.Error{Kind: errs.KindSyntax, Message: msg}
}

// readBody reads a JSON request body within the limits: the content type,
// the size (413 beyond it) and the nesting depth. An empty body is nil.
func (s *Server) readBody(c echo.Context) ([]byte, error) {
	r := c.Request()
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); ct != "" && (err != nil || (mt != "application/json" && !isJSONSuffix(mt))) {
		return nil, &errs.Error{Kind: errs.KindUnsupportedMediaType,
			Message: "Unsupported Media Type: send the body as application/json"}
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, s.cfg.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &errs.Error{Kind: errs.KindPayloadTooLarge, Message: "request entity too large"}
		}
		return nil, &errs.Error{Kind: errs.KindValidation, Message: "could not read the request body"}
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, nil
	}
	if ct == "" { // a body with no type is not taken for JSON
		return nil, &errs.Error{Kind: errs.KindUnsupportedMediaType,
			Message: "Unsupported Media Type: send the body as application/json"}
	}
	if err := engine.CheckJSONText(body, "body"); err != nil {
		return nil, err
	}
	return body, checkDepth(body)
}

// decodeBody decodes a body that must be a JSON object or array (koa-body's
// jsonStrict), numbers kept exact.
func decodeBody(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var top any
	if err := dec.Decode(&top); err != nil {
		return nil, syntaxError(jsonMessage(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, syntaxError("Unexpected data after the JSON value")
	}
	switch top.(type) {
	case map[string]any, []any:
		return top, nil
	}
	return nil, syntaxError("invalid JSON, only supports object and array")
}

// readData reads a `{"data": {...}}` body and returns data.
func (s *Server) readData(c echo.Context) (map[string]any, error) {
	body, err := s.readBody(c)
	if err != nil {
		return nil, err
	}
	missing := &errs.Error{Kind: errs.KindValidation, Message: `Missing "data" payload in the request body`}
	if body == nil {
		return nil, missing
	}
	top, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	obj, _ := top.(map[string]any)
	data, ok := obj["data"].(map[string]any)
	if !ok {
		return nil, missing
	}
	return data, nil
}

// readObject reads a plain JSON object body (users-permissions and the
// admin API take unwrapped bodies). An empty body is an empty object.
func (s *Server) readObject(c echo.Context) (map[string]any, error) {
	body, err := s.readBody(c)
	if err != nil || body == nil {
		return map[string]any{}, err
	}
	top, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	obj, ok := top.(map[string]any)
	if !ok {
		return nil, errs.Errorf(errs.KindValidation, "The body must be a JSON object")
	}
	return obj, nil
}

func isJSONSuffix(mt string) bool {
	return len(mt) > 5 && mt[len(mt)-5:] == "+json"
}

// checkDepth refuses bodies nested deeper than maxJSONDepth before decoding.
func checkDepth(b []byte) error {
	depth, inStr, esc := 0, false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
			if depth > maxJSONDepth {
				return syntaxError("JSON nested too deeply")
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

func jsonMessage(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Error()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "Unexpected end of JSON input"
	}
	return err.Error()
}
