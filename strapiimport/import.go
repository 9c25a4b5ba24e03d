// Package strapiimport moves a Strapi 5 database into a Stratum project
// (`stratum import strapi`): documents in every locale and both versions,
// components and dynamic zones, relations in their order (polymorphic ones
// too), media, users, roles and permissions, API tokens and admins, with
// their ids and documentIds.
//
// It speaks no SQL: Strapi's tables are read through store.StrapiSource,
// and rows are written through store.ImportTx, as upserts on their ids, so
// a second run changes nothing and an interrupted run is finished by
// running it again.
package strapiimport

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/internal/progress"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/store"
)

// Options are what an import reads and writes.
type Options struct {
	// Schema is the project's schema (the Strapi project's schema files).
	Schema *models.Schema
	// Project is the project folder (config/plugins.json gets the locales).
	Project string
	// Uploads is the folder of Strapi's local files (its public/uploads);
	// UploadDir is Stratum's. Files are copied when they differ.
	Uploads, UploadDir string
	// Progress receives progress lines (nil: none).
	Progress io.Writer
	// Bar draws progress bars instead of lines (a terminal).
	Bar bool
	// Batch is the number of rows written per transaction (default 500).
	Batch int
	// Force writes into a project that already has rows not imported
	// from this source (rows with the same ids are overwritten).
	Force bool
}

// Source is the Strapi database (store.StrapiSource).
type Source interface {
	Identity() string
	Has(table string, cols ...string) bool
	Columns(table string) []string
	Tables() []string
	Count(ctx context.Context, table string) (int64, error)
	Rows(ctx context.Context, table string, cols, orderBy []string, fn func(map[string]any) error) error
}

// Target is the Stratum database (store.Store).
type Target interface {
	BeginImport(ctx context.Context, source string, types []*models.ContentType, force bool) error
	Import(ctx context.Context, fn func(*store.ImportTx) error) error
	FinishImport(ctx context.Context, types []*models.ContentType) error
}

type importer struct {
	ctx     context.Context
	src     Source
	dst     Target
	o       Options
	rep     *Report
	prog    *progress.Progress
	docIDs  map[string]map[int64]string // table -> row id -> documentId
	comps   map[string]*compData        // component uid -> its rows
	media   map[string]map[int64]map[string][]int64
	defLoc  string
	roleIDs map[int64]int64 // Strapi role id -> Stratum role id
}

// Run imports src into dst.
func Run(ctx context.Context, src Source, dst Target, o Options) (*Report, error) {
	if o.Batch <= 0 {
		o.Batch = 500
	}
	start := time.Now()
	im := &importer{ctx: ctx, src: src, dst: dst, o: o, rep: &Report{Counts: map[string]int{}},
		docIDs: map[string]map[int64]string{}, comps: map[string]*compData{}}
	if err := dst.BeginImport(ctx, src.Identity(), o.Schema.Types, o.Force); err != nil {
		return im.rep, fmt.Errorf("import: %w", err)
	}
	im.prog = progress.New(o.Progress, o.Bar, "import")
	defer im.prog.Done()
	steps := []struct {
		name string
		fn   func() error
	}{
		{"locales", im.locales},
		{"files", im.files},
		{"documents", im.documents},
		{"roles", im.roles},
		{"users", im.users},
		{"admins", im.admins},
		{"tokens", im.tokens},
		{"webhooks", im.webhooks},
	}
	for _, s := range steps {
		if err := s.fn(); err != nil {
			return im.rep, fmt.Errorf("import %s: %w", s.name, err)
		}
	}
	if err := dst.FinishImport(ctx, o.Schema.Types); err != nil {
		return im.rep, fmt.Errorf("import: %w", err)
	}
	im.notImported()
	im.rep.Took = time.Since(start)
	return im.rep, nil
}

// notImported names the Strapi tables with rows that nothing read.
func (im *importer) notImported() {
	known := map[string]string{
		"strapi_transfer_tokens":      "transfer tokens are not imported (Stratum has no transfer API)",
		"strapi_releases":             "releases are not imported (Stratum has no releases)",
		"strapi_workflows":            "review workflows are not imported (Stratum has no review workflows)",
		"strapi_history_versions":     "content history is not imported",
		"admin_roles":                 "admin roles and their permissions are not imported: every Stratum admin is a super admin",
		"upload_folders":              "media library folders are not imported (Stratum's media library has no folders)",
		"strapi_audit_logs":           "audit logs are not imported",
		"strapi_sessions":             "sessions are not imported: users log in again (their JWTs stay valid with the same JWT_SECRET)",
		"strapi_ai_metadata_jobs":     "",
		"strapi_ai_localization_jobs": "",
	}
	ours := map[string]bool{"files": true, "i18n_locale": true, "up_roles": true, "up_users": true, "up_permissions": true, "admin_users": true,
		"admin_permissions": true}
	for _, ct := range im.o.Schema.Types {
		ours[ct.Table()] = true
	}
	for _, t := range im.src.Tables() {
		if _, told := known[t]; told || ours[t] || strings.HasPrefix(t, "strapi_") || !im.src.Has(t, "document_id") {
			continue
		}
		// Documents of a type the project's schema files do not define.
		if n, err := im.src.Count(im.ctx, t); err == nil && n > 0 {
			im.rep.skip("%s (%d rows): no content type of the project has this table (collectionName): add its schema file and import again", t, n)
		}
	}
	for _, t := range im.src.Tables() {
		why, ok := known[t]
		if !ok || why == "" {
			continue
		}
		if n, err := im.src.Count(im.ctx, t); err == nil && n > 0 {
			im.rep.skip("%s (%d rows): %s", t, n, why)
		}
	}
}

// batch writes items in transactions of o.Batch.
func batch[T any](im *importer, label string, items []T, put func(*store.ImportTx, T) error) error {
	im.prog.Start(label, len(items))
	for i := 0; i < len(items); i += im.o.Batch {
		part := items[i:min(i+im.o.Batch, len(items))]
		err := im.dst.Import(im.ctx, func(tx *store.ImportTx) error {
			for _, it := range part {
				if err := put(tx, it); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		im.prog.Add(len(part))
	}
	im.prog.Finish()
	return nil
}

// loadIDs reads id -> documentId of a table.
func (im *importer) loadIDs(table string) (map[int64]string, error) {
	if m, ok := im.docIDs[table]; ok {
		return m, nil
	}
	m := map[int64]string{}
	if im.src.Has(table, "id", "document_id") {
		err := im.src.Rows(im.ctx, table, []string{"id", "document_id"}, nil, func(r map[string]any) error {
			if id, ok := toInt(r["id"]); ok {
				m[id] = str(r["document_id"])
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	im.docIDs[table] = m
	return m, nil
}
