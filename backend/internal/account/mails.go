package account

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/mail"
)

// letter is an account mail: a greeting, its paragraphs (the link one of them) and the
// signature. It greets name, or no one when name is empty (a mail to an address that is not
// verified carries nothing that its registrant typed).
func letter(to, subject, name string, paragraphs ...string) mail.Message {
	greeting := "Hello,"
	if name != "" {
		greeting = "Hi " + name + ","
	}
	return mail.Message{
		To:      to,
		Subject: subject,
		Text:    greeting + "\n\n" + strings.Join(paragraphs, "\n\n") + "\n\n— Percolate\n",
	}
}

// verifyMail goes to an address not yet verified, so it greets no one.
func verifyMail(to, link string) mail.Message {
	return letter(to, "Verify your email for Percolate", "",
		"Welcome to Percolate! Please confirm your email address by opening this link:",
		link,
		"The link works once and expires in 24 hours. If you didn't create a Percolate account, you can ignore this email.")
}

func resetMail(to, name, link string) mail.Message {
	return letter(to, "Reset your Percolate password", name,
		"Someone (hopefully you) asked to reset the password of your Percolate account. Choose a new password here:",
		link,
		"The link works once and expires in 1 hour. If you didn't ask for this, you can ignore this email; your password stays the same.")
}

func alreadyRegisteredMail(to, name, link string) mail.Message {
	return letter(to, "You already have a Percolate account", name,
		"Someone tried to register a new Percolate account with this email address, but you already have one. Sign in here:",
		link,
		"If you forgot your password, use \"Forgot password\" on the sign-in page. If this wasn't you, you can ignore this email.")
}

// claimedMail tells the mailbox owner that a password set on their address by someone who
// never verified it was removed when they signed in with a third-party account.
func claimedMail(to, name, link string) mail.Message {
	return letter(to, "You signed in to Percolate with Google", name,
		"You just signed in to Percolate with your Google account. Someone had registered this email address "+
			"with a password before, but never confirmed it, so we removed that password and signed out any logins that used it. "+
			"Only you can sign in now.",
		"If that registration was yours and you'd like a password too, use \"Forgot password\" on the sign-in page:",
		link)
}

func loginLinkMail(to, name, link string) mail.Message {
	return letter(to, "Your Percolate sign-in link", name,
		"Someone (hopefully you) asked for a link to sign in to Percolate without a password. Sign in here:",
		link,
		"The link works once and expires in 15 minutes. If you didn't ask for it, you can ignore this email; nobody can use it without your mailbox.")
}
