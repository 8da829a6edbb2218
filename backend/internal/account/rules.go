package account

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/percolate/percolate/gen/limits"
)

// Limits of the account fields, in characters, as the contract states them (the request
// validator applies the contract first; these rules also hold for callers that bypass it,
// such as third-party sign-in).
const (
	MaxName        = limits.RegisterRequestNameMaxLength
	MaxEmail       = limits.RegisterRequestEmailMaxLength
	MinPassword    = limits.RegisterRequestPasswordMinLength
	MaxPassword    = limits.RegisterRequestPasswordMaxLength
	MaxProfileText = limits.ProfileUpdateFocusAreasMaxLength
	MinAge, MaxAge = limits.ProfileUpdateAgeMinimum, limits.ProfileUpdateAgeMaximum
)

// Field messages.
const (
	msgNameRequired     = "Please enter your name."
	msgNameOneLine      = "Please write your name on one line."
	msgEmailInvalid     = "Please enter a valid email address."
	msgPasswordIsEmail  = "Your password must not be your email address."
	msgPasswordCommon   = "This password is too common. Please choose one that is harder to guess."
	msgPasswordMismatch = "Passwords do not match."
	msgCurrentWrong     = "Your current password is incorrect."
)

// Field messages that name a limit.
var (
	msgNameTooLong   = fmt.Sprintf("Your name must be at most %d characters.", MaxName)
	msgEmailTooLong  = fmt.Sprintf("Your email address must be at most %d characters.", MaxEmail)
	msgPasswordShort = fmt.Sprintf("Your password must be at least %d characters.", MinPassword)
	msgPasswordLong  = fmt.Sprintf("Your password must be at most %d characters.", MaxPassword)
	msgAgeRange      = fmt.Sprintf("Please enter an age between %d and %d.", MinAge, MaxAge)
	msgAgeUnder13    = fmt.Sprintf("Percolate is for people %d and over.", MinAge)
	msgTextTooLong   = fmt.Sprintf("Please keep this to %d characters or fewer.", MaxProfileText)
)

// checkName returns a field message, or "" when name (trimmed) is a name on one line.
func checkName(name string) string {
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return msgNameRequired
	case n > MaxName:
		return msgNameTooLong
	case strings.ContainsFunc(name, breaksLine):
		return msgNameOneLine
	}
	return ""
}

// breaksLine reports whether r has no place in one line of text: a control character
// (newlines among them) or a line or paragraph separator.
func breaksLine(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// OneLine turns s into one line: each character that would break it becomes a space, and
// white space around it goes. For names that come from elsewhere (an identity provider)
// and headers.
func OneLine(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if breaksLine(r) {
			return ' '
		}
		return r
	}, s))
}

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
