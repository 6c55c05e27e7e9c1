package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http/httptest"
	"net/mail"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/db"
)

// emailParts reads a composed message: multipart/alternative with a
// quoted-printable text/plain part, then a text/html one.
func emailParts(t *testing.T, msg *mail.Message) (text, htmlPart []byte) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" || params["boundary"] == "" {
		t.Fatalf("Content-Type %q (%v)", msg.Header.Get("Content-Type"), err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	var types []string
	for {
		p, err := r.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if cte := p.Header.Get("Content-Transfer-Encoding"); cte != "quoted-printable" {
			t.Errorf("part encoding %q", cte)
		}
		b, err := io.ReadAll(quotedprintable.NewReader(p))
		if err != nil {
			t.Fatal(err)
		}
		ct := p.Header.Get("Content-Type")
		types = append(types, ct)
		switch ct {
		case "text/plain; charset=UTF-8":
			text = b
		case "text/html; charset=UTF-8":
			htmlPart = b
		}
	}
	if strings.Join(types, ", ") != "text/plain; charset=UTF-8, text/html; charset=UTF-8" {
		t.Errorf("parts %v, want text then HTML", types)
	}
	return text, htmlPart
}

// links are the href and text of every <a> in an HTML document.
func links(t *testing.T, b []byte) map[string]string {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" {
			var href string
			for _, a := range n.Attr {
				if a.Key == "href" {
					href = a.Val
				}
			}
			var text strings.Builder
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.TextNode {
					text.WriteString(c.Data)
				}
			}
			out[href] = text.String()
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

func compose(t *testing.T, l db.Lead) (text, htmlPart []byte) {
	t.Helper()
	e := ComposeEmail(NewEvent(l, testBase), &mail.Address{Address: "noreply@example.test"}, []string{"owner@example.test"},
		"row1", time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC), time.UTC)
	msg, err := mail.ReadMessage(bytes.NewReader(e.Body))
	if err != nil {
		t.Fatal(err)
	}
	return emailParts(t, msg)
}

// The email shows the phone formatted, as a tel: link in the HTML part
// and written out in the text part; the email address is a mailto: link.
func TestEmailPhoneLinks(t *testing.T) {
	for _, typed := range []string{"6785550199", "678.555.0199", "+1 (678) 555-0199", "+16785550199"} {
		l := testLead("lead-p")
		l.Phone = typed
		text, page := compose(t, l)
		if !bytes.Contains(text, []byte("Phone:      (678) 555-0199 <tel:+16785550199>\r\n")) {
			t.Errorf("%q: text part:\n%s", typed, text)
		}
		got := links(t, page)
		if got["tel:+16785550199"] != "(678) 555-0199" || got["mailto:maria@example.com"] != "maria@example.com" || got[testBase+"/admin/leads?lead=lead-p"] == "" {
			t.Errorf("%q: links %v", typed, got)
		}
		if !bytes.Contains(page, []byte("EMERGENCY: the customer says this is an emergency.")) {
			t.Errorf("%q: the HTML part does not mark the emergency", typed)
		}
	}
}

// A number that cannot be normalised is shown as typed and is no link;
// hostile values are escaped, never markup or a link of their own.
func TestEmailHTMLIsEscaped(t *testing.T) {
	l := testLead("lead-x")
	l.Phone = `678-555-0199 x12 <a href="javascript:alert(1)">call</a>`
	l.Email = `"evil" <a@evil.example>`
	l.FirstName = `<script>alert(1)</script>`
	l.Notes = "</p><img src=x onerror=alert(1)>\nline two"
	l.IsEmergency = false
	text, page := compose(t, l)
	if got := links(t, page); len(got) != 1 || got[testBase+"/admin/leads?lead=lead-x"] == "" {
		t.Errorf("links %v, want only the leads manager", got)
	}
	for _, bad := range []string{"<script", "<img", `<a href="javascript`, "EMERGENCY"} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("HTML part holds %q:\n%s", bad, page)
		}
	}
	if !bytes.Contains(page, []byte("&lt;script&gt;")) || !bytes.Contains(page, []byte("line two")) {
		t.Errorf("HTML part lost the escaped values:\n%s", page)
	}
	if bytes.Contains(text, []byte("<tel:")) || !bytes.Contains(text, []byte("678-555-0199 x12")) {
		t.Errorf("text part:\n%s", text)
	}
}

// The webhook's JSON carries the stored (E.164) phone, what was typed,
// the formatted number and its tel: link; a number that cannot be
// normalised is carried as typed, with no link.
func TestWebhookEventPhone(t *testing.T) {
	rc := &receiver{}
	ts := httptest.NewServer(rc)
	defer ts.Close()
	store := db.NewTestSQLite(t)
	n, _ := newNotifier(t, store, Config{Webhook: NewWebhook(ts.URL, testSecret)}, nil)
	ctx := context.Background()
	for i, tc := range []struct{ id, typed, stored, display, href string }{
		{"w1", "770-555-0122", "+17705550122", "(770) 555-0122", "tel:+17705550122"},
		{"w2", "678-555-0199 x12", "678-555-0199 x12", "678-555-0199 x12", ""},
	} {
		l := testLead(tc.id)
		l.Phone = tc.typed
		if err := n.SaveLead(ctx, l); err != nil {
			t.Fatal(err)
		}
		if got, err := n.DeliverDue(ctx); got != 1 || err != nil || rc.count() != i+1 {
			t.Fatalf("%s: delivered %d, %v", tc.id, got, err)
		}
		body := rc.bodies[i]
		var ev map[string]any
		if err := json.Unmarshal(body, &ev); err != nil {
			t.Fatalf("%s: %v %q", tc.id, err, body)
		}
		lead := ev["lead"].(map[string]any)
		href, hasHref := ev["phoneHref"]
		if lead["phone"] != tc.stored || lead["phone_typed"] != tc.typed || ev["phoneDisplay"] != tc.display || hasHref != (tc.href != "") ||
			(hasHref && href != tc.href) {
			t.Errorf("%s: event %s", tc.id, body)
		}
		// What the event announces is what was stored.
		if got, _ := store.GetLead(ctx, tc.id); got.Phone != tc.stored || got.PhoneTyped != tc.typed {
			t.Errorf("%s: stored %q / %q", tc.id, got.Phone, got.PhoneTyped)
		}
	}
}
