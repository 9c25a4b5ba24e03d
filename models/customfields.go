package models

import "fmt"

// TypeCustomField is Strapi's custom field attribute type: the plugin's
// field (`customField`: "plugin::color-picker.color") stores a base type.
const TypeCustomField AttrType = "customField"

// customFieldTypes are the base types of well-known custom fields, as
// their plugins register them.
var customFieldTypes = map[string]AttrType{
	"plugin::color-picker.color":               TypeString,
	"plugin::country-select.country":           TypeString,
	"plugin::strapi-advanced-uuid.uuid":        TypeString,
	"plugin::ckeditor5.CKEditor":               TypeRichText,
	"plugin::ckeditor.CKEditor":                TypeRichText,
	"plugin::strapi-plugin-ckeditor.CKEditor":  TypeRichText,
	"plugin::multi-select.multi-select":        TypeJSON,
	"plugin::tagsinput.tags":                   TypeJSON,
	"plugin::google-maps.location-picker":      TypeJSON,
	"plugin::strapi-plugin-iconhub.iconhub":    TypeJSON,
	"plugin::strapi-v5-plugin-json-field.json": TypeJSON,
}

// resolveCustomField gives a custom field its base type; an unknown one is
// kept as JSON (any value is stored as given) with a warning, never a
// refused start.
func resolveCustomField(a *Attribute) (warning string) {
	if a.Type != TypeCustomField {
		return ""
	}
	if base, ok := customFieldTypes[a.CustomField]; ok {
		a.Type = base
		return ""
	}
	a.Type = TypeJSON
	// Rules of the base type the plugin would have checked do not apply to JSON.
	a.Regex, a.MinLength, a.MaxLength, a.Min, a.Max = "", nil, nil, nil, nil
	return fmt.Sprintf("attribute %q: custom field %q is not known to Stratum: its values are stored as JSON, as given", a.Name, a.CustomField)
}
