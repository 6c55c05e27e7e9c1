package db

import (
	"context"
	"fmt"
	"strings"
)

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

// QueryPlan is SQLite's EXPLAIN QUERY PLAN of query, its steps' details
// joined by "; " (tests read which index a list uses). Only on SQLite.
func (s *Store) QueryPlan(ctx context.Context, query string, args ...any) (string, error) {
	if s.dialect != "sqlite" {
		return "", fmt.Errorf("query plan: SQLite only")
	}
	rows, err := s.db.QueryContext(ctx, `EXPLAIN QUERY PLAN `+s.q(query), args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var steps []string
	for rows.Next() {
		var id, parent, notUsed int
		var detail string
		if err := rows.Scan(&id, &parent, &notUsed, &detail); err != nil {
			return "", err
		}
		steps = append(steps, detail)
	}
	return strings.Join(steps, "; "), rows.Err()
}
