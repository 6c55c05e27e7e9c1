package benchdata

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/atlanta-restoration/site/db"
)

var (
	firstNames = []string{"James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
		"William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Christopher",
		"Lisa", "Daniel", "Nancy", "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Margaret", "Donald", "Ashley", "Steven",
		"Kimberly", "Andrew", "Emily", "Kenneth", "Donna", "Joshua", "Michelle", "Kevin", "Carol", "Brian", "Amanda", "Tamika",
		"DeShawn", "Keisha", "Marcus", "LaToya", "Jamal", "Sofia", "Diego", "Mei", "Wei", "Priya", "Arjun", "Olu", "Chioma"}
	lastNames = []string{"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
		"Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee",
		"Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young",
		"Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker",
		"Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Okafor", "Patel", "Chen", "Washington", "Freeman"}
	leadCities = []string{"Atlanta", "Marietta", "Roswell", "Alpharetta", "Sandy Springs", "Decatur", "Smyrna", "Kennesaw",
		"Lawrenceville", "Duluth", "Johns Creek", "Dunwoody", "Peachtree Corners", "Brookhaven", "Stone Mountain", "Tucker",
		"Snellville", "Lilburn", "Norcross", "Suwanee", "Buford", "Cumming", "Woodstock", "Canton", "Acworth", "Powder Springs",
		"Austell", "Douglasville", "Fayetteville", "Peachtree City", "Newnan", "McDonough", "Stockbridge", "Conyers", "Covington"}
	damageTypes = []string{"water", "water", "water", "fire", "storm", "mold", "other"}
	areaCodes   = []string{"404", "678", "770", "470"}
	utmSources  = []string{"", "", "", "google", "google", "facebook", "nextdoor", "yelp"}
	carriers    = []string{"", "", "State Farm", "Allstate", "USAA", "Progressive", "Liberty Mutual", "Farmers"}
)

// LeadSpan is how far back the generated leads reach.
const LeadSpan = 2 * 365 * 24 * time.Hour

// Leads stores n generated leads created over the two years before now,
// spread evenly with jitter. A lead older than three days has been
// answered (first response minutes to hours after it came in) and has
// moved on from new; a few of the latest are still new. rng makes the
// set reproducible. It writes in batches of rows, one transaction each,
// for a set of 100,000 in seconds rather than the minutes of one
// insert per row.
func Leads(ctx context.Context, st *db.Store, n int, now time.Time, rng *rand.Rand) error {
	const batch = 200
	cols := []string{"id", "created_at", "updated_at", "first_name", "last_name", "phone", "phone_typed", "email", "city",
		"street_address", "zip_code", "damage_type", "status", "is_emergency", "source", "insurance_carrier", "claim_number",
		"notes", "search_name", "search_contact", "utm_source", "utm_medium", "utm_campaign", "referrer_host", "landing_page", "device_class", "first_response_at", "source_key"}
	step := LeadSpan / time.Duration(max(n, 1))
	for start := 0; start < n; start += batch {
		end := min(start+batch, n)
		var b strings.Builder
		b.WriteString("INSERT INTO avatar_leads (" + strings.Join(cols, ", ") + ") VALUES ")
		args := make([]any, 0, (end-start)*len(cols))
		for i := start; i < end; i++ {
			if i > start {
				b.WriteString(",")
			}
			b.WriteString("(" + strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + ")")
			args = append(args, leadRow(i, n, step, now, rng)...)
		}
		err := st.Transact(ctx, func(tx *sqlx.Tx) error {
			_, err := tx.ExecContext(ctx, tx.Rebind(b.String()), args...)
			return err
		})
		if err != nil {
			return fmt.Errorf("seed leads %d-%d: %w", start, end, err)
		}
	}
	return nil
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// leadRow is the i-th of n leads (0 the oldest), in Leads' column order.
func leadRow(i, n int, step time.Duration, now time.Time, rng *rand.Rand) []any {
	created := now.Add(-LeadSpan + time.Duration(i)*step + time.Duration(rng.Int64N(int64(step)+1))).UTC().Truncate(time.Second)
	if created.After(now) {
		created = now.Add(-time.Minute).UTC()
	}
	first, last := pick(rng, firstNames), pick(rng, lastNames)
	local := fmt.Sprintf("%d%03d%04d", 2+rng.IntN(8), rng.IntN(1000), rng.IntN(10000))
	e164 := "+1" + pick(rng, areaCodes) + local[len(local)-7:]
	typed := fmt.Sprintf("(%s) %s-%s", e164[2:5], e164[5:8], e164[8:])
	email := strings.ToLower(first) + "." + strings.ToLower(last) + fmt.Sprint(rng.IntN(1000)) + "@example.com"
	emergency := rng.IntN(5) == 0
	status := "completed"
	var responded any
	age := now.Sub(created)
	switch {
	case age < 6*time.Hour && rng.IntN(3) == 0:
		status = "new"
	case age < 3*24*time.Hour:
		status = pick(rng, []string{"new", "contacted", "scheduled"})
	default:
		status = pick(rng, []string{"completed", "completed", "completed", "cancelled", "contacted"})
	}
	if status != "new" {
		responded = created.Add(time.Duration(2+rng.IntN(240)) * time.Minute)
	}
	utm := pick(rng, utmSources)
	medium, campaign, ref := "", "", ""
	switch utm {
	case "google":
		medium, campaign, ref = "cpc", pick(rng, []string{"water damage", "fire damage", "storm"}), "www.google.com"
	case "facebook":
		medium, campaign, ref = "social", "spring", "m.facebook.com"
	case "":
		ref = pick(rng, []string{"", "", "www.google.com", "www.bing.com"})
	default:
		ref = "www." + utm + ".com"
	}
	carrier, claim := pick(rng, carriers), ""
	if carrier != "" {
		claim = fmt.Sprintf("CLM-%07d", rng.IntN(10_000_000))
	}
	notes := ""
	if rng.IntN(3) == 0 {
		notes = pick(rng, []string{"Water in the basement after a storm.", "Kitchen fire, smoke in two rooms.",
			"Tree on the roof, tarp needed.", "Pipe burst under the sink.", "Musty smell in the crawl space."})
	}
	city := pick(rng, leadCities)
	name, contact := db.LeadSearch(db.Lead{FirstName: first, LastName: last, City: city, Email: email, Phone: e164})
	sourceKey := db.LeadSourceKey(db.Attribution{UTMSource: utm, UTMMedium: medium, UTMCampaign: campaign, ReferrerHost: ref})
	return []any{uuid.NewString(), created, created, first, last, e164, typed, email, city,
		fmt.Sprintf("%d %s St", 100+rng.IntN(9000), pick(rng, lastNames)), fmt.Sprintf("30%03d", rng.IntN(400)),
		pick(rng, damageTypes), status, emergency, "website", carrier, claim, notes, name, contact, utm, medium, campaign, ref,
		pick(rng, []string{"/", "/water-damage-restoration", "/fire-damage-restoration", "/areas/fulton/atlanta"}),
		pick(rng, []string{"mobile", "mobile", "mobile", "desktop", "laptop", "tablet"}), responded, sourceKey}
}
