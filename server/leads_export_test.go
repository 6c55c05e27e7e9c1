package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// CSV injection through the separator: a visitor's name or city such as
// "Bob;=cmd|' /C calc'!A0" starts with a letter, so the leading-character
// check let it through unquoted; a spreadsheet that splits on semicolons
// (Excel in much of Europe) or tabs (text import) then reads a cell that
// begins with "=". However a spreadsheet splits the export, no cell
// begins with a formula character.
func TestAttackCSVInjectionThroughSeparators(t *testing.T) {
	srv, store, h := accountServer(t)
	admin := signIn(t, h, adminEmail, adminPass)
	_ = srv
	for i, c := range []struct{ name, city string }{
		{"Bob;=cmd|' /C calc'!A0", "Marietta"},
		{"Ann Tab", "Marietta\t=1+2"},
		{"Eve Semi", "Roswell;+SUM(A1:A9)"},
		{"Max;@SUM(1)", "Smyrna;-2+3"},
	} {
		f := validForm()
		f.Set("name", c.name)
		f.Set("city", c.city)
		if r := postForm(t, h, "/api/estimate", f, fmt.Sprintf("10.7.0.%d", i+1), "application/json"); r.StatusCode != http.StatusCreated {
			t.Fatalf("lead %q: %d %s", c.name, r.StatusCode, r.Body)
		}
	}
	if n := len(storedLeads(t, store)); n != 4 {
		t.Fatalf("%d leads", n)
	}
	exp := jsonReq(t, h, "GET", "/api/admin/leads/export.csv", admin, nil)
	if exp.StatusCode != 200 {
		t.Fatalf("export: %d", exp.StatusCode)
	}
	for _, sep := range []rune{',', ';', '\t'} {
		for _, rec := range spreadsheetSplit(exp.Body, sep) {
			for _, cell := range rec {
				if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
					t.Errorf("split on %q, a cell begins a formula: %q", sep, cell)
				}
			}
		}
	}
	// The standard reader still reads the names as typed.
	if !strings.Contains(exp.Body, `Bob;=cmd|' /C calc'!A0`) {
		t.Errorf("the name is not exported as typed:\n%s", exp.Body)
	}
}

// spreadsheetSplit reads CSV text as a spreadsheet splitting on sep
// does: double quotes group, "" is a quote, newlines end a record.
func spreadsheetSplit(text string, sep rune) [][]string {
	var out [][]string
	var rec []string
	var cell strings.Builder
	quoted := false
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quoted && r == '"' && i+1 < len(rs) && rs[i+1] == '"':
			cell.WriteRune('"')
			i++
		case r == '"':
			quoted = !quoted
		case !quoted && r == sep:
			rec = append(rec, cell.String())
			cell.Reset()
		case !quoted && (r == '\n' || r == '\r'):
			if cell.Len() > 0 || len(rec) > 0 {
				out = append(out, append(rec, cell.String()))
			}
			rec, cell = nil, strings.Builder{}
		default:
			cell.WriteRune(r)
		}
	}
	if cell.Len() > 0 || len(rec) > 0 {
		out = append(out, append(rec, cell.String()))
	}
	return out
}
