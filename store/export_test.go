package store

// AddMigrationForTest appends a migration running stmts on either
// database, so tests can watch a later migration being applied, failing or
// raced; restore puts the list back.
func AddMigrationForTest(name string, stmts ...string) (version int, restore func()) {
	saved := migrations
	version = len(migrations) + 1
	migrations = append(migrations[:len(migrations):len(migrations)],
		migration{version: version, name: name, sqlite: stmts, postgres: stmts})
	return version, func() { migrations = saved }
}

// SetMaxResolvedIDsForTest changes how many related documents a relation
// filter is resolved to (relids.go); 0 keeps every subquery.
func SetMaxResolvedIDsForTest(n int) (restore func()) {
	saved := maxResolvedIDs
	maxResolvedIDs = n
	return func() { maxResolvedIDs = saved }
}
