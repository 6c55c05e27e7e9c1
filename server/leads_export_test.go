package server

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
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

// 'Export with source': the spec's nine columns, then the attribution's,
// formula injection neutralised in them too.
func TestExportWithSource(t *testing.T) {
	_, store, h, who := speedServer(t)
	ctx := context.Background()
	l := db.Lead{ID: "lead-src", CreatedAt: time.Now().UTC(), UpdatedAt: time.Now().UTC(), FirstName: "Ana", LastName: "Ruiz", Phone: "(678) 555-0199",
		City: "Smyrna", DamageType: "Mold", Status: "new", Source: "website",
		Attribution: db.Attribution{LandingPage: "/water-damage", UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "=HYPERLINK(\"x\")", GCLID: "abc-123"}}
	if err := store.CreateLead(ctx, l); err != nil {
		t.Fatal(err)
	}
	r := jsonReq(t, h, "GET", "/api/admin/leads/export.csv?with=source", who.admin, nil)
	rows, err := csv.NewReader(strings.NewReader(r.Body)).ReadAll()
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("export: %d %v", r.StatusCode, err)
	}
	want := slices.Concat(leads.CSVHeader, leads.VisitCSVHeader, leads.SourceCSVHeader)
	if strings.Join(rows[0], ",") != strings.Join(want, ",") || !strings.Contains(r.Header.Get("Content-Disposition"), "with-source") {
		t.Fatalf("header %v, disposition %s", rows[0], r.Header.Get("Content-Disposition"))
	}
	found := false
	for _, row := range rows[1:] {
		if row[0] == "lead-src" {
			found = true
			if row[13] != "/water-damage" || row[15] != "google" || row[17] != "'=HYPERLINK(\"x\")" || row[20] != "abc-123" {
				t.Errorf("row %v", row)
			}
		}
	}
	if !found {
		t.Error("the lead is not exported")
	}
	plain := jsonReq(t, h, "GET", "/api/admin/leads/export.csv", who.admin, nil)
	if first, _, _ := strings.Cut(plain.Body, "\n"); first != strings.Join(slices.Concat(leads.CSVHeader, leads.VisitCSVHeader), ",") {
		t.Errorf("plain export header %q", first)
	}
}
