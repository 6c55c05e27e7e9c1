package db

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// AuditRows joins each entry's account as it is now and its lead's
// name and city; an erased lead and an entry without an account join
// nothing.
func TestAuditRows(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Second)
		u := User{ID: "u-sam", Email: "sam@example.com", Name: "Sam Lee", PasswordHash: "x", CreatedAt: now, UpdatedAt: now, Roles: []string{"admin"}}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateLead(ctx, Lead{ID: "lead-1", CreatedAt: now, UpdatedAt: now, FirstName: "Jane", LastName: "Doe", Phone: "(404) 555-0100",
			City: "Marietta", DamageType: "Water Damage", Status: "new", Source: "website"}); err != nil {
			t.Fatal(err)
		}
		for i, e := range []AuditEntry{
			{Actor: "command line", Action: AuditUserCreated, Detail: "sam@example.com (admin)"},
			{UserID: "u-sam", Actor: "sam@example.com", Action: AuditStatusChange, LeadID: "lead-1", Detail: "new → contacted", IP: "203.0.113.7"},
			{UserID: "u-sam", Actor: "sam@example.com", Action: AuditLeadDetail, LeadID: "lead-gone", IP: "203.0.113.7"},
		} {
			e.At = now.Add(time.Duration(i) * time.Second)
			if err := s.AddAudit(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		rows, total, err := s.AuditRows(ctx, 10, 0)
		if err != nil || total != 3 || len(rows) != 3 {
			t.Fatalf("%d rows of %d: %v", len(rows), total, err)
		}
		gone, status, cli := rows[0], rows[1], rows[2]
		if gone.LeadFound || gone.ActorEmail != "sam@example.com" || gone.ActorName != "Sam Lee" {
			t.Errorf("erased lead's entry: %+v", gone)
		}
		if !status.LeadFound || status.LeadFirst != "Jane" || status.LeadLast != "Doe" || status.LeadCity != "Marietta" || status.IP != "203.0.113.7" {
			t.Errorf("status entry: %+v", status)
		}
		if cli.ActorEmail != "" || cli.LeadFound || cli.Actor != "command line" {
			t.Errorf("command line entry: %+v", cli)
		}
	})
}

func TestAuditLog(t *testing.T) {
	ForEachDB(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
		for i := 0; i < 5; i++ {
			e := AuditEntry{At: base.Add(time.Duration(i) * time.Minute), Actor: "owner@example.com", Action: AuditExport, Detail: fmt.Sprint(i), IP: "10.0.0.1"}
			if i == 2 {
				e.UserID, e.LeadID, e.Action = "u1", "L1", AuditLeadDetail
			}
			if err := s.AddAudit(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		got, total, err := s.ListAudit(ctx, 2, 2)
		if err != nil || total != 5 || len(got) != 2 || got[0].Detail != "2" || got[1].Detail != "1" {
			t.Fatalf("page 2: %+v total %d %v", got, total, err)
		}
		if got[0].UserID != "u1" || got[0].LeadID != "L1" || got[0].Action != AuditLeadDetail || got[0].IP != "10.0.0.1" {
			t.Errorf("row: %+v", got[0])
		}
	})
}
