package engine

import "github.com/stratum-cms/stratum/models"

// InData reports whether an attribute is kept in Row.Data (public scalars,
// served as stored) rather than Row.Extra.
func InData(a *models.Attribute) bool { return a.IsScalar() && !a.IsHidden() }

// Column is the table column that holds an attribute: "data" for small
// public scalars, "large" for public text, rich text, blocks and JSON (kept
// apart so that PostgreSQL stores data inline and filters never unpack
// long texts), "extra" for the rest. Row.Data holds data and large together.
func Column(a *models.Attribute) string {
	if !InData(a) {
		return "extra"
	}
	if IsLarge(a) {
		return "large"
	}
	return "data"
}

// IsLarge reports whether a public scalar's values may be long.
func IsLarge(a *models.Attribute) bool {
	switch a.Type {
	case models.TypeText, models.TypeRichText, models.TypeBlocks, models.TypeJSON:
		return true
	}
	return false
}
