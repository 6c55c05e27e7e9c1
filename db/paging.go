package db

import "strings"

// Page is one page of an admin list and its search (web/paging, ADR 069):
// the store matches Q on the columns each list documents, and returns
// Limit rows from Offset in a stable order with the exact total.
type Page struct {
	Q             string
	Limit, Offset int
}

// LikeEscape escapes LIKE's wildcards so a search is literal (with
// ESCAPE '\').
func LikeEscape(s string) string { return likeEscape(s) }

// Contains is the condition "any of exprs contains q, ignoring case" and
// its arguments, for a list's search: "" and no arguments when q is empty.
// LIKE '%q%' cannot use a B-tree index; every list that calls it narrows
// the rows with an indexed condition first or is bounded by the server.
func Contains(q string, exprs ...string) (string, []any) {
	q = strings.TrimSpace(q)
	if q == "" || len(exprs) == 0 {
		return "", nil
	}
	pat := "%" + likeEscape(strings.ToLower(q)) + "%"
	ors := make([]string, len(exprs))
	args := make([]any, len(exprs))
	for i, e := range exprs {
		ors[i] = `LOWER(` + e + `) LIKE ? ESCAPE '\'`
		args[i] = pat
	}
	return "(" + strings.Join(ors, " OR ") + ")", args
}
