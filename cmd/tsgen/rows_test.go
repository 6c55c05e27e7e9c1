package main

import (
	"reflect"
	"sort"
	"testing"

	"github.com/atlanta-restoration/site/db"
)

// No answer of the admin API and no page's props is a db row, or holds
// one: a row's fields are the table's, and a column added or renamed
// would change what the browser reads without anyone deciding it. Each
// handler package answers with its own named types, built from the rows
// (leads.Event, seoaudit.Run, backup.Run, reviews.Review, ...).
func TestNoAnswerIsADBRow(t *testing.T) {
	dbPkg := reflect.TypeOf(db.Lead{}).PkgPath()
	found := map[string][]string{} // db type -> the answers that reach it
	for _, f := range files {
		for _, ty := range f.types {
			seen := map[reflect.Type]bool{}
			var walk func(t reflect.Type)
			walk = func(t reflect.Type) {
				for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
					t = t.Elem()
				}
				if t.Kind() != reflect.Struct || seen[t] {
					return
				}
				seen[t] = true
				if t.PkgPath() == dbPkg {
					found["db."+t.Name()] = append(found["db."+t.Name()], ty.Name)
				}
				for i := 0; i < t.NumField(); i++ {
					sf := t.Field(i)
					if !sf.IsExported() || sf.Tag.Get("json") == "-" {
						continue
					}
					walk(sf.Type)
				}
			}
			walk(ty.Go)
		}
	}
	names := make([]string, 0, len(found))
	for n := range found {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Errorf("%s goes to the browser in %v: answer with a type of the domain package, built from the row", n, found[n])
	}
}
