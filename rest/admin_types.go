package rest

import (
	"encoding/json"
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
)

// adminTypeRoutes serves /admin/content-types and /admin/components: the
// same JSON as schema files, applied live on every node.
func (s *Server) adminTypeRoutes(g *echo.Group) {
	for _, kind := range []string{engine.KindContentType, engine.KindComponent} {
		base := "/content-types"
		if kind == engine.KindComponent {
			base = "/components"
		}
		g.GET(base, s.listDefinitions(kind))
		g.POST(base, s.changeDefinition(kind, engine.ChangeCreate))
		g.GET(base+"/:uid", s.getDefinition(kind))
		g.PUT(base+"/:uid", s.changeDefinition(kind, engine.ChangeReplace))
		g.DELETE(base+"/:uid", s.changeDefinition(kind, engine.ChangeDelete))
	}
}

// definitionJSON is how a definition is shown by the admin API.
type definitionJSON struct {
	UID    string          `json:"uid"`
	Source string          `json:"source"` // "file" or "database"
	File   string          `json:"file,omitempty"`
	Schema json.RawMessage `json:"schema"`
}

func (s *Server) definitions(kind string) []definitionJSON {
	sc := s.engine.Registry.Current().Schema
	var out []definitionJSON
	add := func(uid, src string, raw json.RawMessage) {
		d := definitionJSON{UID: uid, Source: "database", Schema: raw}
		if src != "database" {
			d.Source, d.File = "file", src
		}
		if len(d.Schema) == 0 {
			d.Schema = json.RawMessage("{}")
		}
		out = append(out, d)
	}
	if kind == engine.KindContentType {
		for _, t := range sc.Types {
			add(t.UID, t.Source, t.Raw)
		}
	} else {
		for _, c := range sc.Components {
			add(c.UID, c.Source, c.Raw)
		}
	}
	return out
}

func (s *Server) listDefinitions(kind string) echo.HandlerFunc {
	return func(c echo.Context) error {
		defs := s.definitions(kind)
		if defs == nil {
			defs = []definitionJSON{}
		}
		return c.JSON(http.StatusOK, map[string]any{"data": defs, "meta": map[string]any{}})
	}
}

func (s *Server) getDefinition(kind string) echo.HandlerFunc {
	return func(c echo.Context) error {
		for _, d := range s.definitions(kind) {
			if d.UID == uidParam(c) {
				return c.JSON(http.StatusOK, map[string]any{"data": d, "meta": map[string]any{}})
			}
		}
		return errs.NotFound()
	}
}

var singularRe = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

func (s *Server) changeDefinition(kind string, mode engine.ChangeMode) echo.HandlerFunc {
	return func(c echo.Context) error {
		ch := engine.SchemaChange{Mode: mode, Kind: kind, UID: uidParam(c), Force: c.QueryParam("force") == "true"}
		if mode != engine.ChangeDelete {
			body, err := s.readRawJSON(c)
			if err != nil {
				return err
			}
			ch.Body = body
			if mode == engine.ChangeCreate {
				if ch.UID, err = definitionUID(kind, body); err != nil {
					return err
				}
			}
		}
		snap, err := s.engine.ChangeSchema(c.Request().Context(), ch)
		if err != nil {
			return err
		}
		status := http.StatusOK
		if mode == engine.ChangeCreate {
			status = http.StatusCreated
		}
		data := map[string]any{"uid": ch.UID, "version": snap.Version}
		if ch.Body != nil {
			data["schema"] = json.RawMessage(ch.Body)
		}
		return c.JSON(status, map[string]any{"data": data, "meta": map[string]any{}})
	}
}

// definitionUID takes the uid of a new definition from its body: an explicit
// "uid", or api::<singularName>.<singularName> for content-types.
func definitionUID(kind string, body []byte) (string, error) {
	var head struct {
		UID  string `json:"uid"`
		Info struct {
			SingularName string `json:"singularName"`
		} `json:"info"`
	}
	_ = json.Unmarshal(body, &head)
	if head.UID != "" {
		return head.UID, nil
	}
	if kind == engine.KindContentType && singularRe.MatchString(head.Info.SingularName) {
		return "api::" + head.Info.SingularName + "." + head.Info.SingularName, nil
	}
	if kind == engine.KindComponent {
		return "", errs.Errorf(errs.KindValidation, `A component needs "uid": "<category>.<name>"`)
	}
	return "", errs.Errorf(errs.KindValidation, `A content-type needs info.singularName (or "uid")`)
}

// readRawJSON reads a JSON object body within the limits, as sent (the
// stored definition keeps the client's key order).
func (s *Server) readRawJSON(c echo.Context) ([]byte, error) {
	body, err := s.readBody(c)
	if err != nil {
		return nil, err
	}
	if body == nil {
		return nil, errs.Errorf(errs.KindValidation, "The body must be the JSON of a schema file")
	}
	top, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	if _, ok := top.(map[string]any); !ok {
		return nil, errs.Errorf(errs.KindValidation, "The body must be the JSON of a schema file")
	}
	return body, nil
}
