package config

import (
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaultsAreValid(t *testing.T) {
	c, err := LoadFrom(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.BaseURL != "http://localhost:8080" || c.Business.License != "RBQA006428" || c.Business.Zip != "30134" {
		t.Errorf("unexpected defaults: %+v", c)
	}
	if TelHref(c.Business.Phone) != "tel:+17705550134" {
		t.Errorf("tel href %q", TelHref(c.Business.Phone))
	}
}

func TestBadValuesNameTheVariable(t *testing.T) {
	for name, val := range map[string]string{
		"PORT": "http", "BASE_URL": "example.com/x", "APP_ENV": "staging", "DATABASE_URL": "mysql://x",
		"SSR_POOL_SIZE": "0", "RENDER_TIMEOUT": "soon", "BODY_LIMIT": "lots", "BUSINESS_PHONE": "555-01",
		"BUSINESS_ZIP": "3013", "FACEBOOK_URL": "http://facebook.com/x", "LEAD_FORM_URL": "ftp://x",
		"INDEXNOW_KEY": "bad key!", "INDEXNOW_DEBOUNCE": "soon", "HEALTH_INTERVAL": "0s",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := LoadFrom(env(map[string]string{name: val}))
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("err = %v, want one naming %s", err, name)
			}
		})
	}
}

func TestScriptNeedsForm(t *testing.T) {
	_, err := LoadFrom(env(map[string]string{"LEAD_FORM_SCRIPT": "https://x.test/a.js"}))
	if err == nil || !strings.Contains(err.Error(), "LEAD_FORM_SCRIPT") {
		t.Fatalf("err = %v", err)
	}
}
