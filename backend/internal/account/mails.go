package account

import (
	"fmt"

	"github.com/percolate/percolate/backend/internal/mail"
)

func verifyMail(to, name, link string) mail.Message {
	return mail.Message{
		To:      to,
		Subject: "Verify your email for Percolate",
		Text: fmt.Sprintf("Hi %s,\n\nWelcome to Percolate! Please confirm your email address by opening this link:\n\n%s\n\n"+
			"The link works once and expires in 24 hours. If you didn't create a Percolate account, you can ignore this email.\n\n— Percolate\n", name, link),
	}
}

func resetMail(to, name, link string) mail.Message {
	return mail.Message{
		To:      to,
		Subject: "Reset your Percolate password",
		Text: fmt.Sprintf("Hi %s,\n\nSomeone (hopefully you) asked to reset the password of your Percolate account. Choose a new password here:\n\n%s\n\n"+
			"The link works once and expires in 1 hour. If you didn't ask for this, you can ignore this email; your password stays the same.\n\n— Percolate\n", name, link),
	}
}

func alreadyRegisteredMail(to, name, link string) mail.Message {
	return mail.Message{
		To:      to,
		Subject: "You already have a Percolate account",
		Text: fmt.Sprintf("Hi %s,\n\nSomeone tried to register a new Percolate account with this email address, but you already have one. "+
			"Sign in here:\n\n%s\n\nIf you forgot your password, use \"Forgot password\" on the sign-in page. If this wasn't you, you can ignore this email.\n\n— Percolate\n", name, link),
	}
}

// claimedMail tells the mailbox owner that a password set on their address by someone who
// never verified it was removed when they signed in with a third-party account.
func claimedMail(to, name, link string) mail.Message {
	return mail.Message{
		To:      to,
		Subject: "You signed in to Percolate with Google",
		Text: fmt.Sprintf("Hi %s,\n\nYou just signed in to Percolate with your Google account. Someone had registered this email address "+
			"with a password before, but never confirmed it, so we removed that password and signed out any logins that used it. "+
			"Only you can sign in now.\n\nIf that registration was yours and you'd like a password too, use \"Forgot password\" on the sign-in page:\n\n%s\n\n— Percolate\n", name, link),
	}
}
