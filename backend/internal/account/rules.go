package account

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the account fields, in characters.
const (
	MaxName        = 100
	MaxEmail       = 254
	MinPassword    = 8
	MaxPassword    = 128
	MaxProfileText = 250
	MinAge, MaxAge = 13, 120
)

// Field messages.
const (
	msgNameRequired     = "Please enter your name."
	msgNameTooLong      = "Your name must be at most 100 characters."
	msgEmailInvalid     = "Please enter a valid email address."
	msgEmailTooLong     = "Your email address must be at most 254 characters."
	msgPasswordShort    = "Your password must be at least 8 characters."
	msgPasswordLong     = "Your password must be at most 128 characters."
	msgPasswordIsEmail  = "Your password must not be your email address."
	msgPasswordCommon   = "This password is too common. Please choose one that is harder to guess."
	msgPasswordMismatch = "Passwords do not match."
	msgAgeRange         = "Please enter an age between 13 and 120."
	msgAgeUnder13       = "Percolate is for people 13 and over."
	msgTextTooLong      = "Please keep this to 250 characters or fewer."
	msgCurrentWrong     = "Your current password is incorrect."
)

// normalizeEmail trims the address; comparisons ignore case (the unique index is on lower()).
func normalizeEmail(s string) string { return strings.TrimSpace(s) }

// checkEmail returns a field message, or "" when e is a plain valid address.
func checkEmail(e string) string {
	if utf8.RuneCountInString(e) > MaxEmail {
		return msgEmailTooLong
	}
	if !ValidEmail(e) {
		return msgEmailInvalid
	}
	return ""
}

// ValidEmail reports whether e is a plain address: no display name or angle brackets, no
// white space or control characters, and a domain that neither starts nor ends with a dot.
// It is the contract's "email" format.
func ValidEmail(e string) bool {
	if e == "" || strings.ContainsFunc(e, unicode.IsSpace) || strings.ContainsFunc(e, unicode.IsControl) {
		return false
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || a.Name != "" {
		return false
	}
	local, domain, ok := strings.Cut(e, "@")
	return ok && local != "" && domain != "" && !strings.Contains(domain, "@") &&
		!strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// checkPassword returns a field message, or "" when pw is acceptable for the account email.
func checkPassword(pw, email string) string {
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinPassword:
		return msgPasswordShort
	case n > MaxPassword:
		return msgPasswordLong
	case email != "" && strings.EqualFold(strings.TrimSpace(pw), strings.TrimSpace(email)):
		return msgPasswordIsEmail
	}
	if _, common := commonPasswords[strings.ToLower(pw)]; common {
		return msgPasswordCommon
	}
	return ""
}
