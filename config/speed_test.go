package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const (
	testSID   = "AC0123456789abcdef0123456789abcdef"
	testToken = "twilio-token-do-not-log-5521"
)

func twilioEnv(extra ...string) map[string]string {
	m := map[string]string{"SMS_PROVIDER": "twilio", "TWILIO_ACCOUNT_SID": testSID, "TWILIO_AUTH_TOKEN": testToken,
		"TWILIO_FROM": "(770) 555-0100", "LEAD_NOTIFY_SMS": "770-555-0111, +1 (678) 555-0122,7705550111"}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return m
}

func TestSMSConfig(t *testing.T) {
	c, err := LoadFrom(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Notify.SMS.Provider != "" || c.Notify.SMS.APIBase != "https://api.twilio.com" || c.Notify.EscalateAfter != 10*time.Minute {
		t.Errorf("defaults: SMS %+v, escalate after %v", c.Notify.SMS, c.Notify.EscalateAfter)
	}
	c, err = LoadFrom(env(twilioEnv("TWILIO_API_BASE", "http://127.0.0.1:4010/")))
	if err != nil {
		t.Fatal(err)
	}
	want := SMS{Provider: "twilio", AccountSID: testSID, AuthToken: testToken, From: "+17705550100", APIBase: "http://127.0.0.1:4010",
		To: []string{"+17705550111", "+16785550122"}}
	if diff := cmp.Diff(want, c.Notify.SMS); diff != "" {
		t.Errorf("SMS (-want, +got):\n%s", diff)
	}
	found := false
	for _, s := range c.Secrets() {
		found = found || s == testToken
	}
	if !found {
		t.Error("the Twilio auth token is not among the secrets the log redacts")
	}
	c, err = LoadFrom(env(twilioEnv("TWILIO_FROM", "MG0123456789abcdef0123456789abcdef")))
	if err != nil || c.Notify.SMS.From != "MG0123456789abcdef0123456789abcdef" {
		t.Errorf("messaging service sender: %+v %v", c.Notify.SMS, err)
	}
}

// Every bad SMS setting stops the boot naming its variable, and no
// message quotes the auth token.
func TestSMSConfigRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unknown provider", twilioEnv("SMS_PROVIDER", "nexmo"), "SMS_PROVIDER"},
		{"bad sid", twilioEnv("TWILIO_ACCOUNT_SID", "AC123"), "TWILIO_ACCOUNT_SID"},
		{"no token", twilioEnv("TWILIO_AUTH_TOKEN", ""), "TWILIO_AUTH_TOKEN"},
		{"short token", twilioEnv("TWILIO_AUTH_TOKEN", "abc"), "TWILIO_AUTH_TOKEN"},
		{"token with a space", twilioEnv("TWILIO_AUTH_TOKEN", "twilio token do-not-log"), "TWILIO_AUTH_TOKEN"},
		{"no sender", twilioEnv("TWILIO_FROM", ""), "TWILIO_FROM"},
		{"bad sender", twilioEnv("TWILIO_FROM", "555-0100"), "TWILIO_FROM"},
		{"no recipients", twilioEnv("LEAD_NOTIFY_SMS", ""), "LEAD_NOTIFY_SMS"},
		{"bad recipient", twilioEnv("LEAD_NOTIFY_SMS", "7705550111, 911"), "LEAD_NOTIFY_SMS"},
		{"too many recipients", twilioEnv("LEAD_NOTIFY_SMS", "7705550101,7705550102,7705550103,7705550104,7705550105,7705550106,7705550107,7705550108,7705550109,7705550110,7705550112"), "LEAD_NOTIFY_SMS"},
		{"plain http elsewhere", twilioEnv("TWILIO_API_BASE", "http://api.twilio.com"), "TWILIO_API_BASE"},
		{"credentials in the base", twilioEnv("TWILIO_API_BASE", "https://user:pw@api.twilio.com"), "TWILIO_API_BASE"},
		{"numbers without a provider", map[string]string{"LEAD_NOTIFY_SMS": "7705550111"}, "LEAD_NOTIFY_SMS"},
		{"token without a provider", map[string]string{"TWILIO_AUTH_TOKEN": testToken}, "TWILIO_AUTH_TOKEN"},
		{"escalation too soon", map[string]string{"LEAD_ESCALATE_AFTER": "30s"}, "LEAD_ESCALATE_AFTER"},
		{"escalation unreadable", map[string]string{"LEAD_ESCALATE_AFTER": "soon"}, "LEAD_ESCALATE_AFTER"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadFrom(env(tc.env))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "do-not-log") {
				t.Errorf("the error quotes the auth token: %v", err)
			}
		})
	}
}

func TestVAPIDSubject(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"set", map[string]string{"VAPID_SUBJECT": "mailto:oncall@example.com", "BUSINESS_EMAIL": "office@example.com"}, "mailto:oncall@example.com"},
		{"set to a site", map[string]string{"VAPID_SUBJECT": "https://example.com/contact"}, "https://example.com/contact"},
		{"business email", map[string]string{"BUSINESS_EMAIL": "office@example.com", "SMTP_FROM": "Website <leads@example.com>"}, "mailto:office@example.com"},
		{"lead mail sender", map[string]string{"SMTP_FROM": "Website <leads@example.com>"}, "mailto:leads@example.com"},
		{"https site", map[string]string{"BASE_URL": "https://www.example.com"}, "https://www.example.com"},
		{"plain http site", map[string]string{"BASE_URL": "http://staging.example.com:8080"}, "mailto:noreply@staging.example.com"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := LoadFrom(env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.Notify.VAPIDSubject != tc.want || !ValidVAPIDSubject(c.Notify.VAPIDSubject) {
				t.Errorf("subject %q, want %q", c.Notify.VAPIDSubject, tc.want)
			}
		})
	}
	for _, bad := range []string{"oncall@example.com", "mailto:", "mailto:Owner <o@example.com>", "http://example.com", "https://", "https://u:p@example.com"} {
		if _, err := LoadFrom(env(map[string]string{"VAPID_SUBJECT": bad})); err == nil || !strings.Contains(err.Error(), "VAPID_SUBJECT") {
			t.Errorf("VAPID_SUBJECT=%q: %v", bad, err)
		}
	}
}
