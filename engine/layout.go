package engine

import "github.com/stratum-cms/stratum/models"

// InData reports whether an attribute is kept in Row.Data (public scalars,
// served as stored) rather than Row.Extra.
func InData(a *models.Attribute) bool { return a.IsScalar() && !a.IsHidden() }

// Column is the row column ("data" or "extra") that holds an attribute.
func Column(a *models.Attribute) string {
	if InData(a) {
		return "data"
	}
	return "extra"
}
