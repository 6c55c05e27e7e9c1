// Package config reads the server's settings from environment variables
// once, at boot, and validates them. A bad or missing value stops the boot
// with a message naming the variable.
package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Business holds the company facts shown on every page. They come from
// configuration so the owner can change them without a code change.
type Business struct {
	Name      string `json:"name"`
	Phone     string `json:"phone"`
	Street    string `json:"street"`
	City      string `json:"city"`
	State     string `json:"state"`
	Zip       string `json:"zip"`
	County    string `json:"county"`
	License   string `json:"license"`
	Email     string `json:"email"`
	Facebook  string `json:"facebook"`
	Instagram string `json:"instagram"`
	YouTube   string `json:"youtube"`
	Yelp      string `json:"yelp"`
	ReviewURL string `json:"reviewUrl"`
	// Website is the business's public web address for structured data;
	// empty means BASE_URL. System Settings can change it.
	Website string `json:"website"`
	// LeadFormURL is the CRM lead-capture iframe address; empty shows the
	// native estimate form instead.
	LeadFormURL string `json:"leadFormUrl"`
	// LeadFormScript is the CRM's embed script, injected once, lazily.
	LeadFormScript string `json:"leadFormScript"`
}

// Reviews configures the Google Places review fetch.
type Reviews struct {
	APIKey      string
	PlaceID     string
	Endpoint    string
	MinInterval time.Duration
}

// Admin configures the admin gate and the media uploads.
type Admin struct {
	PIN         string
	TokenTTL    time.Duration
	MaxAttempts int
	Lockout     time.Duration
	MaxUpload   int64
}

// Storage says where uploaded media live.
type Storage struct {
	Kind      string // local or s3
	Endpoint  string
	Bucket    string
	Region    string
	AccessKey string
	SecretKey string
}

// Config is the whole validated configuration.
type Config struct {
	Addr          string
	BaseURL       string // absolute, no trailing slash
	Env           string // production or development
	DatabaseURL   string // empty: SQLite in DataDir
	DataDir       string
	SourceDir     string // project root with pages/, components/, node_modules/
	PoolSize      int
	RenderTimeout time.Duration
	BodyLimit     string
	AccessLog     bool
	TrustProxy    bool
	Business      Business
	Reviews       Reviews
	Admin         Admin
	Storage       Storage
	// IndexNowEndpoint is where the admin IndexNow submission posts (INDEXNOW_ENDPOINT).
	IndexNowEndpoint string
}

// Dev reports development mode (rebuild on change, errors in the page).
func (c *Config) Dev() bool { return c.Env == "development" }

// Var documents one variable for the README table and for errors.
type Var struct {
	Name, Default, Help string
}

// Vars lists every variable with its default. README's table mirrors it.
var Vars = []Var{
	{"PORT", "8080", "TCP port to listen on"},
	{"BASE_URL", "http://localhost:8080", "absolute site address used for canonicals, sitemap and structured data"},
	{"APP_ENV", "production", "production or development (rebuild on change, errors shown in the page)"},
	{"DATABASE_URL", "", "postgres://... to use PostgreSQL; empty uses SQLite in DATA_DIR"},
	{"DATA_DIR", "./data", "folder for the SQLite file and uploaded media"},
	{"SOURCE_DIR", ".", "project folder holding pages/, components/ and node_modules/ for the startup build"},
	{"SSR_POOL_SIZE", "number of CPUs", "goja runtimes rendering pages"},
	{"RENDER_TIMEOUT", "5s", "longest a single render may run before it is interrupted"},
	{"BODY_LIMIT", "1M", "largest request body for forms and APIs"},
	{"ACCESS_LOG", "true", "write one log line per request (true or false)"},
	{"TRUST_PROXY", "false", "take client IPs from X-Forwarded-For (only behind a proxy that sets it)"},
	{"BUSINESS_NAME", "Avatar Restoration & Construction", "company name"},
	{"BUSINESS_PHONE", "(770) 555-0134", "24/7 emergency phone, 10 US digits"},
	{"BUSINESS_STREET", "6595 Church Street", "office street address"},
	{"BUSINESS_CITY", "Douglasville", "office city"},
	{"BUSINESS_STATE", "GA", "office state"},
	{"BUSINESS_ZIP", "30134", "office postal code, 5 digits"},
	{"BUSINESS_COUNTY", "Douglas", "office county, used by the home hero"},
	{"LICENSE_NUMBER", "RBQA006428", "contractor licence number shown on pages"},
	{"BUSINESS_EMAIL", "", "public contact email (optional)"},
	{"FACEBOOK_URL", "https://www.facebook.com/", "Facebook page"},
	{"INSTAGRAM_URL", "https://www.instagram.com/", "Instagram profile"},
	{"YOUTUBE_URL", "https://www.youtube.com/", "YouTube channel"},
	{"YELP_URL", "https://www.yelp.com/", "Yelp listing"},
	{"GOOGLE_REVIEW_URL", "https://www.google.com/maps", "page where customers write a Google review"},
	{"GOOGLE_PLACES_API_KEY", "", "Google Places API key for the review refresh (optional)"},
	{"GOOGLE_PLACE_ID", "", "Google place id of the business (optional)"},
	{"GOOGLE_PLACES_ENDPOINT", "https://maps.googleapis.com/maps/api/place/details/json", "Places Details endpoint (tests point it at a fake)"},
	{"REVIEWS_MIN_INTERVAL", "10m", "shortest time between two review fetches"},
	{"ADMIN_PIN", "", "admin PIN (4-64 characters); empty: a random PIN is generated at first boot and printed once"},
	{"ADMIN_TOKEN_TTL", "30m", "how long an unlocked admin session lasts"},
	{"ADMIN_MAX_ATTEMPTS", "5", "wrong PINs allowed per client IP within ADMIN_LOCKOUT"},
	{"ADMIN_LOCKOUT", "15m", "window for wrong PINs; past the limit the gate answers 429"},
	{"MAX_UPLOAD_BYTES", "2147483648", "largest photo or video upload (bytes; 2 GB)"},
	{"STORAGE", "local", "media storage: local (DATA_DIR/media) or s3"},
	{"S3_ENDPOINT", "", "S3-compatible endpoint, e.g. https://s3.us-east-1.amazonaws.com"},
	{"S3_BUCKET", "project-photos", "bucket for media"},
	{"S3_REGION", "us-east-1", "bucket region"},
	{"S3_ACCESS_KEY", "", "S3 access key id"},
	{"S3_SECRET_KEY", "", "S3 secret key"},
	{"LEAD_FORM_URL", "", "CRM lead-form iframe address (https); empty shows the native estimate form"},
	{"LEAD_FORM_SCRIPT", "", "CRM embed script address (https), injected once and lazily"},
	// IndexNow (admin SEO & IndexNow screen)
	{"INDEXNOW_ENDPOINT", "https://api.indexnow.org/indexnow", "IndexNow endpoint the admin submission posts to (tests point it at a fake)"},
}

func defaults() map[string]string {
	m := map[string]string{}
	for _, v := range Vars {
		m[v.Name] = v.Default
	}
	return m
}

// Load reads the configuration from the environment.
func Load() (*Config, error) { return LoadFrom(os.Getenv) }

// LoadFrom reads the configuration through getenv (tests pass a map).
func LoadFrom(getenv func(string) string) (*Config, error) {
	def := defaults()
	get := func(name string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def[name]
	}
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", name, fmt.Sprintf(format, args...)))
	}
	c := &Config{}

	port, err := strconv.Atoi(get("PORT"))
	if err != nil || port < 1 || port > 65535 {
		bad("PORT", "%q is not a port number (1-65535)", get("PORT"))
	}
	c.Addr = ":" + strconv.Itoa(port)

	c.BaseURL = strings.TrimRight(get("BASE_URL"), "/")
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		bad("BASE_URL", "%q must be an absolute http(s) address with no path, e.g. https://example.com", get("BASE_URL"))
	}

	c.Env = get("APP_ENV")
	if c.Env != "production" && c.Env != "development" {
		bad("APP_ENV", "%q must be production or development", c.Env)
	}

	c.DatabaseURL = get("DATABASE_URL")
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		bad("DATABASE_URL", "must start with postgres:// or postgresql:// (leave it empty for SQLite)")
	}
	c.DataDir = get("DATA_DIR")
	c.SourceDir = get("SOURCE_DIR")

	c.PoolSize = runtime.NumCPU()
	if v := getenv("SSR_POOL_SIZE"); strings.TrimSpace(v) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 64 {
			bad("SSR_POOL_SIZE", "%q must be a whole number from 1 to 64", v)
		}
		c.PoolSize = n
	}
	c.RenderTimeout, err = time.ParseDuration(get("RENDER_TIMEOUT"))
	if err != nil || c.RenderTimeout <= 0 {
		bad("RENDER_TIMEOUT", "%q is not a positive duration such as 5s", get("RENDER_TIMEOUT"))
	}
	switch get("ACCESS_LOG") {
	case "true", "1":
		c.AccessLog = true
	case "false", "0":
	default:
		bad("ACCESS_LOG", "%q must be true or false", get("ACCESS_LOG"))
	}
	switch get("TRUST_PROXY") {
	case "true", "1":
		c.TrustProxy = true
	case "false", "0":
	default:
		bad("TRUST_PROXY", "%q must be true or false", get("TRUST_PROXY"))
	}
	c.BodyLimit = get("BODY_LIMIT")
	if !regexpBodyLimit(c.BodyLimit) {
		bad("BODY_LIMIT", "%q must be a size such as 512K or 1M", c.BodyLimit)
	}

	b := Business{
		Name: get("BUSINESS_NAME"), Phone: get("BUSINESS_PHONE"), Street: get("BUSINESS_STREET"),
		City: get("BUSINESS_CITY"), State: get("BUSINESS_STATE"), Zip: get("BUSINESS_ZIP"),
		County: get("BUSINESS_COUNTY"), License: get("LICENSE_NUMBER"), Email: get("BUSINESS_EMAIL"),
		Facebook: get("FACEBOOK_URL"), Instagram: get("INSTAGRAM_URL"), YouTube: get("YOUTUBE_URL"),
		Yelp: get("YELP_URL"), ReviewURL: get("GOOGLE_REVIEW_URL"),
		LeadFormURL: get("LEAD_FORM_URL"), LeadFormScript: get("LEAD_FORM_SCRIPT"),
	}
	if len(PhoneDigits(b.Phone)) != 10 {
		bad("BUSINESS_PHONE", "%q must hold 10 digits, e.g. (770) 555-0134", b.Phone)
	}
	if len(b.Zip) != 5 || strings.Trim(b.Zip, "0123456789") != "" {
		bad("BUSINESS_ZIP", "%q must be 5 digits", b.Zip)
	}
	for name, v := range map[string]string{"BUSINESS_NAME": b.Name, "BUSINESS_STREET": b.Street, "BUSINESS_CITY": b.City, "BUSINESS_STATE": b.State, "LICENSE_NUMBER": b.License} {
		if v == "" {
			bad(name, "must not be empty")
		}
	}
	for name, v := range map[string]string{"FACEBOOK_URL": b.Facebook, "INSTAGRAM_URL": b.Instagram, "YOUTUBE_URL": b.YouTube, "YELP_URL": b.Yelp, "GOOGLE_REVIEW_URL": b.ReviewURL, "LEAD_FORM_URL": b.LeadFormURL, "LEAD_FORM_SCRIPT": b.LeadFormScript} {
		if v == "" {
			continue
		}
		if u, err := url.Parse(v); err != nil || u.Scheme != "https" || u.Host == "" {
			bad(name, "%q must be an absolute https address", v)
		}
	}
	if b.LeadFormScript != "" && b.LeadFormURL == "" {
		bad("LEAD_FORM_SCRIPT", "is set but LEAD_FORM_URL is empty; the script needs the form it embeds")
	}
	c.Business = b
	c.Reviews = Reviews{APIKey: get("GOOGLE_PLACES_API_KEY"), PlaceID: get("GOOGLE_PLACE_ID"), Endpoint: get("GOOGLE_PLACES_ENDPOINT")}
	if u, err := url.Parse(c.Reviews.Endpoint); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		bad("GOOGLE_PLACES_ENDPOINT", "%q must be an absolute http(s) address", c.Reviews.Endpoint)
	}
	if c.Reviews.MinInterval, err = time.ParseDuration(get("REVIEWS_MIN_INTERVAL")); err != nil || c.Reviews.MinInterval < 0 {
		bad("REVIEWS_MIN_INTERVAL", "%q is not a duration such as 10m", get("REVIEWS_MIN_INTERVAL"))
	}
	c.Admin = Admin{PIN: getenv("ADMIN_PIN")}
	if p := c.Admin.PIN; p != "" && (len(p) < 4 || len(p) > 64 || strings.TrimSpace(p) != p) {
		bad("ADMIN_PIN", "must be 4-64 characters without surrounding spaces")
	}
	if c.Admin.TokenTTL, err = time.ParseDuration(get("ADMIN_TOKEN_TTL")); err != nil || c.Admin.TokenTTL <= 0 {
		bad("ADMIN_TOKEN_TTL", "%q is not a positive duration such as 30m", get("ADMIN_TOKEN_TTL"))
	}
	if c.Admin.MaxAttempts, err = strconv.Atoi(get("ADMIN_MAX_ATTEMPTS")); err != nil || c.Admin.MaxAttempts < 1 {
		bad("ADMIN_MAX_ATTEMPTS", "%q must be a whole number of at least 1", get("ADMIN_MAX_ATTEMPTS"))
	}
	if c.Admin.Lockout, err = time.ParseDuration(get("ADMIN_LOCKOUT")); err != nil || c.Admin.Lockout <= 0 {
		bad("ADMIN_LOCKOUT", "%q is not a positive duration such as 15m", get("ADMIN_LOCKOUT"))
	}
	if c.Admin.MaxUpload, err = strconv.ParseInt(get("MAX_UPLOAD_BYTES"), 10, 64); err != nil || c.Admin.MaxUpload < 1 {
		bad("MAX_UPLOAD_BYTES", "%q must be a positive number of bytes", get("MAX_UPLOAD_BYTES"))
	}
	c.Storage = Storage{Kind: get("STORAGE"), Endpoint: get("S3_ENDPOINT"), Bucket: get("S3_BUCKET"), Region: get("S3_REGION"), AccessKey: get("S3_ACCESS_KEY"), SecretKey: get("S3_SECRET_KEY")}
	switch c.Storage.Kind {
	case "local":
	case "s3":
		if u, err := url.Parse(c.Storage.Endpoint); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("S3_ENDPOINT", "%q must be an absolute http(s) address when STORAGE=s3", c.Storage.Endpoint)
		}
		if c.Storage.AccessKey == "" || c.Storage.SecretKey == "" {
			bad("S3_ACCESS_KEY", "S3_ACCESS_KEY and S3_SECRET_KEY are required when STORAGE=s3")
		}
	default:
		bad("STORAGE", "%q must be local or s3", c.Storage.Kind)
	}
	// IndexNow (admin SEO & IndexNow screen)
	c.IndexNowEndpoint = get("INDEXNOW_ENDPOINT")
	if u, err := url.Parse(c.IndexNowEndpoint); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		bad("INDEXNOW_ENDPOINT", "%q must be an absolute http(s) address", c.IndexNowEndpoint)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

func regexpBodyLimit(s string) bool {
	if s == "" {
		return false
	}
	n := strings.TrimRight(strings.ToUpper(s), "BKMG")
	if len(s)-len(n) > 2 {
		return false
	}
	_, err := strconv.Atoi(n)
	return err == nil
}

// PhoneDigits keeps the digits of a phone number, dropping a leading US 1.
func PhoneDigits(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	d := b.String()
	if len(d) == 11 && d[0] == '1' {
		d = d[1:]
	}
	return d
}

// TelHref is the tel: link for a phone number.
func TelHref(p string) string { return "tel:+1" + PhoneDigits(p) }
