package engine

import (
	"errors"

	"github.com/stratum-cms/stratum/models"
)

// The stored form of documents that come from another database (`stratum
// import strapi`): the importer builds each row's attribute values in the
// form the document service stores them (scalars normalised, relations as
// target documentIds, media as file ids, components inline with their ids)
// and encodes them with EncodeColumns.

// StoredScalar checks a scalar value read from elsewhere and returns it in
// stored form; v is a JSON-decoded value (strings for dates and times,
// json.Number for numbers). Passwords are kept as given (already hashed).
func StoredScalar(a *models.Attribute, v any) (any, error) {
	nv, msg := normalizeScalar(a, v)
	if msg != "" {
		return nil, errors.New(a.Name + " " + string(msg))
	}
	return nv, nil
}

// EncodeColumns writes a document version's Data and Extra columns from its
// attribute values, as the document service does.
func EncodeColumns(ct *models.ContentType, m map[string]any) (data, extra []byte, err error) {
	return encodeColumns(ct, m)
}
