// Package phone turns the phone numbers visitors type into one stored
// form and back into forms for people and for dialling.
//
// A North American number (NANP, country code 1, the company's market) is
// stored in E.164, "+16785550199", however it was typed: "6785550199",
// "770-555-0122", "+1 (678) 555-0199". Anything else (an extension, a
// foreign number, a typo) cannot be normalised with confidence and is
// kept as typed: a lead is never refused or altered for its phone here.
package phone

import "strings"

// maxTyped bounds the text looked at; the estimate form allows 30.
const maxTyped = 64

// Normalize returns the E.164 form of a North American number and true,
// or s unchanged and false. The digits must be ten, or eleven starting
// with the country code 1 (config.PhoneDigits' rule), and must form a
// possible NANP number: area code and exchange start with 2-9 and are not
// N11 service codes (911, 411). Other characters (spaces, dashes, dots,
// brackets, a leading +, a word such as "cell") are ignored. Normalize is
// idempotent: an E.164 number comes back as it is.
func Normalize(s string) (string, bool) {
	d, ok := nanp(s)
	if !ok {
		return s, false
	}
	return "+1" + d, true
}

// Display is the number for people: "(678) 555-0199" for a North American
// number, typed or E.164, else the text as typed, trimmed.
func Display(s string) string {
	d, ok := nanp(s)
	if !ok {
		return strings.TrimSpace(s)
	}
	return "(" + d[:3] + ") " + d[3:6] + "-" + d[6:]
}

// Href is the tel: link for a North American number, "tel:+16785550199",
// or "" for a number that could not be normalised: a link that may dial
// the wrong party is worse than none.
func Href(s string) string {
	d, ok := nanp(s)
	if !ok {
		return ""
	}
	return "tel:+1" + d
}

// nanp returns the ten national digits of a possible NANP number.
func nanp(s string) (string, bool) {
	if len(s) > maxTyped {
		return "", false
	}
	var b [11]byte
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			continue
		}
		if n == len(b) {
			return "", false
		}
		b[n] = c
		n++
	}
	d := b[:n]
	if n == 11 && d[0] == '1' {
		d = d[1:]
	}
	if len(d) != 10 || !leading(d[0:3]) || !leading(d[3:6]) {
		return "", false
	}
	return string(d), true
}

// leading reports whether a three-digit area code or exchange is NXX
// (N is 2-9) and not an N11 service code.
func leading(x []byte) bool {
	return x[0] >= '2' && !(x[1] == '1' && x[2] == '1')
}
