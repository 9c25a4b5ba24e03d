package models

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// LoadDir reads a Strapi project's src/api/*/content-types/*/schema.json and
// src/components/<category>/<name>.json files and builds the Schema.
func LoadDir(dir string) (*Schema, error) {
	types, comps, err := ReadDir(dir)
	if err != nil {
		return nil, err
	}
	return Build(types, comps)
}

// ReadDir parses the definition files of a project without cross-checking
// them: content-types, components, and the users-permissions extension's
// user and role schemas (types with the system uids).
func ReadDir(dir string) ([]*ContentType, []*Component, error) {
	typeFiles, err := filepath.Glob(filepath.Join(dir, "src", "api", "*", "content-types", "*", "schema.json"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(typeFiles)
	var types []*ContentType
	for _, f := range typeFiles {
		rel, _ := filepath.Rel(dir, f)
		parts := strings.Split(filepath.ToSlash(rel), "/") // src api <api> content-types <name> schema.json
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", rel, err)
		}
		ct, err := ParseContentType("api::"+parts[2]+"."+parts[4], rel, b)
		if err != nil {
			return nil, nil, err
		}
		types = append(types, ct)
	}
	for _, uid := range []string{UserUID, RoleUID} {
		rel := ExtensionPath(uid)
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", rel, err)
		}
		ct, err := ParseContentType(uid, rel, b)
		if err != nil {
			return nil, nil, err
		}
		types = append(types, ct)
	}
	compFiles, err := filepath.Glob(filepath.Join(dir, "src", "components", "*", "*.json"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(compFiles)
	var comps []*Component
	for _, f := range compFiles {
		rel, _ := filepath.Rel(dir, f)
		category := filepath.Base(filepath.Dir(f))
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", rel, err)
		}
		c, err := ParseComponent(category+"."+name, category, rel, b)
		if err != nil {
			return nil, nil, err
		}
		comps = append(comps, c)
	}
	return types, comps, nil
}
