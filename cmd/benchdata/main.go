// Command benchdata (make bench-data) seeds a business's worth of data
// into a fresh database, starts bin/site on it, and times every admin
// answer that grows with the data, on SQLite and on PostgreSQL, at
// 1,000, 10,000 and 100,000 leads. It prints one table per database
// with the median of each answer and its growth from one size to the
// next (×10 data): linear work shows ×10 or less.
//
// The data (package benchdata): leads spread over two years; 10 raw
// analytics events per lead over the last 30 days (about 0.96 visits a
// month per lead), rolled up as the live site does, and a year of daily
// roll-ups before them.
package main

import (
	"bufio"
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/atlanta-restoration/site/app"
	"github.com/atlanta-restoration/site/benchdata"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
)

// probe is one timed admin answer.
type probe struct {
	name, path string
}

var probes = []probe{
	{"dashboard: tiles", "/api/admin/overview"},
	{"dashboard: tool cards", "/api/admin/tools"},
	{"dashboard: first response times", "/api/admin/leads/response-times"},
	{"dashboard: needs attention", "/api/admin/leads/attention"},
	{"dashboard: notifications", "/api/admin/notifications"},
	{"dashboard: recent activity", "/api/admin/jobs"},
	{"Performance Monitor (vitals)", "/api/admin/vitals"},
	{"analytics report, 30 days", "/api/admin/analytics?days=30"},
	{"analytics report, 365 days", "/api/admin/analytics?days=365"},
	{"leads, first page", "/api/admin/leads?page=1"},
	{"leads, last page", "/api/admin/leads?page=LAST"},
	{"leads, status filter (new)", "/api/admin/leads?status=new"},
	{"leads, status filter (completed)", "/api/admin/leads?status=completed"},
	{"leads search, name", "/api/admin/leads?q=Washington"},
	{"leads search, phone as typed", "/api/admin/leads?q=" + url.QueryEscape("(404) 55")},
	{"leads search, email", "/api/admin/leads?q=" + url.QueryEscape("james.smith")},
	{"leads CSV export, all", "/api/admin/leads/export.csv"},
}

func main() {
	sizes := flag.String("sizes", "1000,10000,100000", "lead counts, comma-separated")
	dbs := flag.String("db", "sqlite,postgres", "databases: sqlite, postgres")
	runs := flag.Int("runs", 5, "timed requests per answer (the median is printed)")
	pgAdmin := flag.String("pg", envOr("BENCH_ADMIN_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "PostgreSQL server (a database is created and dropped)")
	bin := flag.String("bin", "bin/site", "the site binary")
	cities := flag.String("cities", "78,500,2000", "city page counts for the boot table (SQLite), comma-separated; empty: none")
	flag.Parse()
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fail("bad size %q", s)
		}
		ns = append(ns, n)
	}
	fmt.Printf("benchdata: %s, load average %s\n", time.Now().UTC().Format(time.RFC3339), loadAvg())
	if *cities != "" {
		var cs []int
		for _, s := range strings.Split(*cities, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 1 {
				fail("bad city count %q", s)
			}
			cs = append(cs, n)
		}
		bootTable(cs, *bin, *runs)
	}
	for _, d := range strings.Split(*dbs, ",") {
		results := map[int]map[string]time.Duration{}
		extra := map[int]string{}
		for _, n := range ns {
			r, note, err := runSize(d, n, *runs, *pgAdmin, *bin)
			if err != nil {
				if d == "postgres" && strings.Contains(err.Error(), "connect") {
					fmt.Printf("\nPostgreSQL not reachable (%v): skipped\n", err)
					break
				}
				fail("%s at %d leads: %v", d, n, err)
			}
			results[n], extra[n] = r, note
		}
		if len(results) > 0 {
			print(d, ns, results, extra)
		}
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func fail(f string, a ...any) {
	fmt.Fprintf(os.Stderr, "benchdata: "+f+"\n", a...)
	os.Exit(1)
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// runSize seeds n leads into a fresh database, starts the site on it and
// times every probe.
func runSize(dialect string, n, runs int, pgAdmin, bin string) (map[string]time.Duration, string, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "benchdata-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(dir)
	dbURL := ""
	if dialect == "postgres" {
		admin, err := sqlx.Connect("postgres", pgAdmin)
		if err != nil {
			return nil, "", fmt.Errorf("connect: %w", err)
		}
		defer admin.Close()
		name := fmt.Sprintf("benchdata_%d_%d", n, time.Now().UnixNano()%1e9)
		if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
			return nil, "", err
		}
		defer admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		u, _ := url.Parse(pgAdmin)
		u.Path = "/" + name
		dbURL = u.String()
	}
	st, err := db.Open(ctx, dbURL, dir)
	if err != nil {
		return nil, "", err
	}
	now := time.Now()
	rng := rand.New(rand.NewPCG(uint64(n), 35))
	t0 := time.Now()
	if err := benchdata.Leads(ctx, st, n, now, rng); err != nil {
		st.Close()
		return nil, "", err
	}
	leadsTook := time.Since(t0)
	t0 = time.Now()
	if dialect == "postgres" {
		// A live database's autovacuum has visited the rows of a bulk
		// load within a minute; do it now, so index-only scans count.
		if _, err := st.DB().ExecContext(ctx, "VACUUM ANALYZE"); err != nil {
			st.Close()
			return nil, "", err
		}
	}
	// 10 raw events per lead over 30 days, about 10.4 events a visit.
	visits := max(n*10/30*10/104, 1)
	events, err := benchdata.Analytics(ctx, st, benchdata.Traffic{VisitsPerDay: visits, RawDays: db.RawDays, RolledDays: 365 - db.RawDays,
		Pages: benchdata.Pages(defaultCities)}, now, rng)
	if err != nil {
		st.Close()
		return nil, "", err
	}
	// The owner's account and a signed-in session of it, made in the
	// store as the sign-in would (the API's sign-in asks for a second
	// factor); the requests carry its token.
	token, err := ownerSession(ctx, st)
	st.Close()
	if err != nil {
		return nil, "", err
	}
	note := fmt.Sprintf("%d leads seeded in %s; %d raw events (%d visits a day) and a year of roll-ups in %s",
		n, leadsTook.Round(time.Millisecond), events, visits, time.Since(t0).Round(time.Millisecond))
	fmt.Fprintf(os.Stderr, "%s, %s\n", dialect, note)

	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "BASE_URL="+base, "DATA_DIR="+dir, "DATABASE_URL="+dbURL,
		"MAX_CONNS_PER_IP=0")
	logf, _ := os.Create(filepath.Join(dir, "server.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() }()
	if err := waitWarm(filepath.Join(dir, "server.log"), cmd); err != nil {
		return nil, "", err
	}
	waitQuiet(cmd.Process.Pid)
	last := (n + 49) / 50
	out := map[string]time.Duration{}
	for _, p := range probes {
		path := strings.Replace(p.path, "page=LAST", "page="+strconv.Itoa(last), 1)
		var ds []time.Duration
		for i := 0; i <= runs; i++ {
			d, err := timed(base+path, token)
			if err != nil {
				return nil, "", fmt.Errorf("%s: %w", p.name, err)
			}
			if i > 0 { // the first request warms the caches
				ds = append(ds, d)
			}
		}
		slices.Sort(ds)
		out[p.name] = ds[len(ds)/2]
	}
	return out, note, nil
}

// defaultCities are area pages ("county/slug") for the generated visits.
var defaultCities = func() []string {
	var out []string
	for _, c := range []string{"fulton/atlanta", "cobb/marietta", "fulton/roswell", "fulton/alpharetta", "dekalb/decatur",
		"cobb/smyrna", "cobb/kennesaw", "gwinnett/lawrenceville", "gwinnett/duluth", "fulton/johns-creek"} {
		out = append(out, c)
	}
	return out
}()

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitWarm waits for the render cache's first warm-up, so the boot's own
// work does not weigh on the timings.
func waitWarm(log string, cmd *exec.Cmd) error {
	deadline := time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(log); bytes.Contains(b, []byte("render cache warm")) {
			return nil
		}
		if cmd.ProcessState != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, _ := os.ReadFile(log)
	return fmt.Errorf("the site did not warm up:\n%s", tail(b))
}

// waitQuiet waits (up to five minutes) until the site has used less than
// a tenth of a core over two seconds: the audits that follow the boot's
// warm-up (SEO, schema, security) are done and do not weigh on the
// timings.
func waitQuiet(pid int) {
	cpu := func() float64 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return -1
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
		if len(f) < 13 {
			return -1
		}
		u, _ := strconv.ParseFloat(f[11], 64)
		s, _ := strconv.ParseFloat(f[12], 64)
		return (u + s) / 100 // clock ticks
	}
	deadline := time.Now().Add(5 * time.Minute)
	prev := cpu()
	for prev >= 0 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Second)
		now := cpu()
		if now-prev < 0.2 {
			return
		}
		prev = now
	}
}

func tail(b []byte) string {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return strings.Join(lines[max(len(lines)-20, 0):], "\n")
}

func ownerSession(ctx context.Context, st *db.Store) (string, error) {
	now := time.Now().UTC()
	u := db.User{ID: uuid.NewString(), Email: "owner@example.com", Name: "Owner", PasswordHash: "-", CreatedAt: now, UpdatedAt: now, Roles: []string{"admin"}}
	if err := st.CreateUser(ctx, u); err != nil {
		return "", err
	}
	b := make([]byte, 32)
	crand.Read(b)
	token := base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(token))
	se := db.Session{ID: uuid.NewString(), TokenHash: hex.EncodeToString(sum[:]), UserID: u.ID, IP: "127.0.0.1", CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(4 * time.Hour), HardExpiresAt: now.Add(4 * time.Hour), Stage: db.StageFull}
	return token, st.CreateSession(ctx, se)
}

// timed is one request read to its end.
func timed(u, token string) (time.Duration, error) {
	d, _, err := timedSize(u, token)
	return d, err
}

// timedSize is timed, and the answer's size.
func timedSize(u, token string) (time.Duration, int64, error) {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	t := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, err
	}
	n, err := io.Copy(io.Discard, res.Body)
	res.Body.Close()
	d := time.Since(t)
	if err != nil {
		return 0, 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET %s: %d (%d bytes)", u, res.StatusCode, n)
	}
	return d, n, nil
}

func ms(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000)
}

// print writes one Markdown table: a column per size, and the growth
// from one size to the next.
func print(dialect string, ns []int, r map[int]map[string]time.Duration, notes map[int]string) {
	fmt.Printf("\n### %s\n\n", dialect)
	for _, n := range ns {
		if notes[n] != "" {
			fmt.Printf("- %s\n", notes[n])
		}
	}
	fmt.Println()
	head := "| answer |"
	sep := "|---|"
	for i, n := range ns {
		head += fmt.Sprintf(" %d leads |", n)
		sep += "---|"
		if i > 0 {
			head += " growth |"
			sep += "---|"
		}
	}
	fmt.Println(head)
	fmt.Println(sep)
	for _, p := range probes {
		line := "| " + p.name + " |"
		for i, n := range ns {
			d, ok := r[n][p.name]
			if !ok {
				line += " |"
				continue
			}
			line += " " + ms(d) + " |"
			if i > 0 {
				if prev, ok := r[ns[i-1]][p.name]; ok && prev > 0 {
					line += fmt.Sprintf(" ×%.1f |", float64(d)/float64(prev))
				} else {
					line += " |"
				}
			}
		}
		fmt.Println(line)
	}
}

// bootTable seeds the embedded content plus generated cities up to each
// count into a fresh SQLite database, boots the site on it and prints
// the time to the render cache's first warm-up, the RSS then and its peak
// through the boot's audits that follow (they must not double it), and
// the admin's first page of cities.
func bootTable(counts []int, bin string, runs int) {
	fmt.Printf("\n### boot (SQLite)\n\n| city pages | boot to warm | RSS at warm | peak RSS through the boot audits | first page of cities (admin) | its median time |\n|---|---|---|---|---|---|\n")
	for _, n := range counts {
		row, err := bootOnce(n, bin, runs)
		if err != nil {
			fail("boot at %d cities: %v", n, err)
		}
		fmt.Println(row)
	}
}

func bootOnce(n int, bin string, runs int) (string, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "benchdata-cities-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	st, err := db.Open(ctx, "", dir)
	if err != nil {
		return "", err
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ed := app.NewEditor(st, quiet)
	ed.Changed = func(string) {}
	embedded, err := content.Load()
	if err != nil {
		st.Close()
		return "", err
	}
	if _, err := ed.Seed(ctx, embedded); err != nil {
		st.Close()
		return "", err
	}
	if extra := n - len(embedded.Cities); extra > 0 {
		if _, err := benchdata.AddCities(ctx, ed, extra); err != nil {
			st.Close()
			return "", err
		}
	}
	token, err := ownerSession(ctx, st)
	st.Close()
	if err != nil {
		return "", err
	}
	port, err := freePort()
	if err != nil {
		return "", err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "BASE_URL="+base, "DATA_DIR="+dir, "DATABASE_URL=", "MAX_CONNS_PER_IP=0")
	logf, _ := os.Create(filepath.Join(dir, "server.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return "", err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() }()
	if err := waitWarm(filepath.Join(dir, "server.log"), cmd); err != nil {
		return "", err
	}
	warm := time.Since(start)
	atWarm := statusKB(cmd.Process.Pid, "VmRSS")
	waitQuiet(cmd.Process.Pid)
	peak := statusKB(cmd.Process.Pid, "VmHWM")
	var ds []time.Duration
	var size int64
	for i := 0; i <= runs; i++ {
		d, n, err := timedSize(base+"/api/admin/content?kind=city", token)
		if err != nil {
			return "", err
		}
		if i > 0 {
			ds = append(ds, d)
		}
		size = n
	}
	slices.Sort(ds)
	return fmt.Sprintf("| %d | %.1f s | %d MB | %d MB | %d KB | %s |", n, warm.Seconds(), atWarm/1024, peak/1024, size/1024, ms(ds[len(ds)/2])), nil
}

// statusKB is a figure of the process's /proc status in KB: VmRSS (its
// resident set now) or VmHWM (the peak so far).
func statusKB(pid int, key string) int64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
