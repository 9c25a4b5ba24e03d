package gqlschema

import (
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"strconv"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/upload"
)

// The upload plugin's GraphQL part: uploadFile(s) queries and the upload,
// multipleUpload, updateFileInfo and removeFile mutations, on the same
// media service as REST's /api/upload, with its permission actions, size
// limit, type checks and image formats. Files come as Upload variables of
// a GraphQL multipart request (the handler puts them in place).

// Upload is one file of a multipart request, the value of an Upload
// variable.
type Upload struct {
	Filename string
	Header   *multipart.FileHeader
}

func (u *Upload) read() ([]byte, error) {
	f, err := u.Header.Open()
	if err != nil {
		return nil, errs.Errorf(errs.KindValidation, "could not read file %q", u.Filename)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, errs.Errorf(errs.KindValidation, "could not read file %q", u.Filename)
	}
	return b, nil
}

var uploadScalar = gql.NewScalar(gql.ScalarConfig{Name: "Upload",
	Description: "A file of a GraphQL multipart request (multipart/form-data with operations and map)",
	Serialize:   func(any) any { return nil },
	ParseValue: func(v any) any {
		if u, ok := v.(*Upload); ok {
			return u
		}
		return nil
	},
	ParseLiteral: func(ast.Value) any { return nil }, // a file is never written in the document
})

// fileOf is a file as the generated file types read it.
func fileOf(f *upload.File) *fileValue {
	b, err := json.Marshal(f)
	if err != nil {
		return nil
	}
	fv := &fileValue{}
	if json.Unmarshal(b, &fv.m) != nil {
		return nil
	}
	return fv
}

type fileCollection struct {
	files                []*fileValue
	total, offset, limit int
}

func (b *builder) uploads(media *upload.Service) {
	sh := b.sh
	info := gql.NewInputObject(gql.InputObjectConfig{Name: "FileInfoInput", Fields: gql.InputObjectConfigFieldMap{
		"name": {Type: gql.String}, "alternativeText": {Type: gql.String}, "caption": {Type: gql.String},
	}})
	collection := gql.NewObject(gql.ObjectConfig{Name: "UploadFileEntityResponseCollection", Fields: gql.Fields{
		"data": &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(sh.uploadEntity))), Resolve: func(p gql.ResolveParams) (any, error) {
			return p.Source.(*fileCollection).files, nil
		}},
		"meta": &gql.Field{Type: gql.NewNonNull(sh.meta), Resolve: func(p gql.ResolveParams) (any, error) {
			c := p.Source.(*fileCollection)
			size := max(c.limit, 1)
			return &pageInfo{page: c.offset/size + 1, pageSize: size, total: c.total, pageCount: (c.total + size - 1) / size}, nil
		}},
	}})
	b.upTypes[uploadScalar.Name()], b.upTypes[info.Name()], b.upTypes[collection.Name()] = uploadScalar, info, collection

	can := func(ctx context.Context, action string) error {
		if !access(ctx).Can(action) {
			return errs.Forbidden()
		}
		return nil
	}
	notFound := func() error { return &errs.Error{Kind: errs.KindNotFound, Message: "file.notFound"} }
	// fileID reads a file's id: its number, or its documentId (the id the
	// file entities show), found with one indexed query.
	fileID := func(ctx context.Context, v any) (int64, error) {
		s, _ := v.(string)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
			return n, nil
		}
		if s == "" || engine.CheckString(s, "id") != nil {
			return 0, notFound()
		}
		return media.ID(ctx, s)
	}
	fileInfo := func(v any) upload.FileInfo {
		m, _ := v.(map[string]any)
		var fi upload.FileInfo
		fi.Name, _ = m["name"].(string)
		if s, ok := m["alternativeText"].(string); ok {
			fi.AlternativeText = &s
		}
		if s, ok := m["caption"].(string); ok {
			fi.Caption = &s
		}
		return fi
	}
	save := func(ctx context.Context, u *Upload, fi upload.FileInfo) (*fileValue, error) {
		if u == nil {
			return nil, errs.Errorf(errs.KindValidation, "Files are empty")
		}
		body, err := u.read()
		if err != nil {
			return nil, err
		}
		f, err := media.Save(ctx, u.Filename, body, fi)
		if err != nil {
			return nil, err
		}
		return fileOf(f), nil
	}

	b.query["uploadFiles"] = &gql.Field{Type: collection,
		Args: gql.FieldConfigArgument{"pagination": {Type: sh.paginationArg, DefaultValue: map[string]any{}}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, upload.ActionFind); err != nil {
				return nil, err
			}
			// One page read in SQL, newest first (the media library's
			// order): the library is never read whole.
			pg, err := b.srv.pagination(p.Args["pagination"])
			if err != nil {
				return nil, err
			}
			offset, limit := pg.Start, pg.Limit
			if !pg.OffsetMode {
				limit = pg.PageSize
				if limit == 0 {
					limit = min(b.srv.eng.Config().DefaultLimit, b.srv.cfg.amountLimit())
				}
				offset = (max(pg.Page, 1) - 1) * limit
			} else if limit == 0 {
				limit = min(b.srv.eng.Config().DefaultLimit, b.srv.cfg.amountLimit())
			}
			files, total, err := media.Range(p.Context, offset, limit, "")
			if err != nil {
				return nil, err
			}
			out := &fileCollection{files: make([]*fileValue, 0, len(files)), total: int(total), offset: offset, limit: limit}
			for _, f := range files {
				out.files = append(out.files, fileOf(f))
			}
			return out, nil
		}}
	b.query["uploadFile"] = &gql.Field{Type: sh.uploadResponse, Args: gql.FieldConfigArgument{"id": {Type: gql.ID}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, upload.ActionFindOne); err != nil {
				return nil, err
			}
			id, err := fileID(p.Context, p.Args["id"])
			if err != nil {
				return (*fileValue)(nil), nil // {data: null}, as for an unknown id elsewhere
			}
			f, err := media.Get(p.Context, id)
			if err != nil {
				if errs.From(err).Kind == errs.KindNotFound {
					return (*fileValue)(nil), nil
				}
				return nil, err
			}
			return fileOf(f), nil
		}}
	// refId, ref and field attach the uploaded files to a document's media
	// attribute, as REST's upload does (the type's update permission), or
	// to a user's (ref plugin::users-permissions.user: a media attribute of
	// the users-permissions extension, with the update permission on users).
	var users *auth.Service
	if up, ok := b.srv.accounts.(upAccounts); ok {
		users = up.svc
	}
	type mediaTarget struct {
		doc  *engine.MediaTarget
		user *auth.UserMediaTarget
	}
	target := func(p gql.ResolveParams) (*mediaTarget, error) {
		s := func(k string) string { v, _ := p.Args[k].(string); return v }
		if s("ref") == models.UserUID && users != nil && s("refId") != "" && s("field") != "" {
			t, err := users.UserMediaTarget(p.Context, access(p.Context).Can, s("refId"), s("field"))
			return &mediaTarget{user: t}, err
		}
		t, err := b.srv.eng.MediaTarget(p.Context, access(p.Context), s("ref"), s("refId"), s("field"))
		return &mediaTarget{doc: t}, err
	}
	attach := func(p gql.ResolveParams, t *mediaTarget, files []*fileValue) error {
		ids := make([]int64, 0, len(files))
		for _, f := range files {
			if id, err := strconv.ParseInt(string(f.m["id"]), 10, 64); err == nil {
				ids = append(ids, id)
			}
		}
		if t.user != nil {
			return t.user.Attach(p.Context, ids)
		}
		return b.srv.eng.AttachMedia(p.Context, access(p.Context), t.doc, ids)
	}
	b.mut["upload"] = &gql.Field{Type: gql.NewNonNull(sh.uploadResponse),
		Args: gql.FieldConfigArgument{"refId": {Type: gql.ID}, "ref": {Type: gql.String}, "field": {Type: gql.String},
			"info": {Type: info}, "file": {Type: gql.NewNonNull(uploadScalar)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, upload.ActionUpload); err != nil {
				return nil, err
			}
			t, err := target(p)
			if err != nil {
				return nil, err
			}
			u, _ := p.Args["file"].(*Upload)
			f, err := save(p.Context, u, fileInfo(p.Args["info"]))
			if err != nil {
				return nil, err
			}
			return f, attach(p, t, []*fileValue{f})
		}}
	b.mut["multipleUpload"] = &gql.Field{Type: gql.NewNonNull(gql.NewList(sh.uploadResponse)),
		Args: gql.FieldConfigArgument{"refId": {Type: gql.ID}, "ref": {Type: gql.String}, "field": {Type: gql.String},
			"files": {Type: gql.NewNonNull(gql.NewList(uploadScalar))}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, upload.ActionUpload); err != nil {
				return nil, err
			}
			list, _ := p.Args["files"].([]any)
			if len(list) == 0 {
				return nil, errs.Errorf(errs.KindValidation, "Files are empty")
			}
			t, err := target(p)
			if err != nil {
				return nil, err
			}
			out := make([]*fileValue, 0, len(list))
			for _, it := range list {
				u, _ := it.(*Upload)
				f, err := save(p.Context, u, upload.FileInfo{})
				if err != nil {
					return nil, err
				}
				out = append(out, f)
			}
			return out, attach(p, t, out)
		}}
	b.mut["updateFileInfo"] = &gql.Field{Type: gql.NewNonNull(sh.uploadResponse),
		Args: gql.FieldConfigArgument{"id": {Type: gql.NewNonNull(gql.ID)}, "info": {Type: info}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, upload.ActionUpload); err != nil {
				return nil, err
			}
			id, err := fileID(p.Context, p.Args["id"])
			if err != nil {
				return nil, err
			}
			f, err := media.Update(p.Context, id, fileInfo(p.Args["info"]))
			if err != nil {
				return nil, err
			}
			return fileOf(f), nil
		}}
	b.mut["removeFile"] = &gql.Field{Type: sh.uploadResponse, Args: gql.FieldConfigArgument{"id": {Type: gql.NewNonNull(gql.ID)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, upload.ActionDestroy); err != nil {
				return nil, err
			}
			id, err := fileID(p.Context, p.Args["id"])
			if err != nil {
				return nil, err
			}
			f, err := media.Delete(p.Context, id)
			if err != nil {
				return nil, err
			}
			return fileOf(f), nil
		}}
}
