package reminders

import (
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/percolate/percolate/backend/internal/mail"
)

// lines is the rotating set of reminder lines: an invitation, never a count, a streak or a
// "you missed".
var lines = []string{
	"A quiet minute for yourself, whenever it suits you.",
	"How are you, really? Percolate is here if you'd like to say.",
	"No need for anything long. One word about your day is plenty.",
	"Put the kettle on and check in with yourself.",
	"Whatever today held, there's room to set it down here.",
	"A small pause can make a busy day feel lighter.",
	"Your thoughts are welcome here, tidy or not.",
}

// journalPrompts are the web app's prompts of the day (frontend/src/features/dashboard/glance.ts),
// in the same order, so a reminder carries the prompt the dashboard shows that day.
var journalPrompts = []string{
	"What is one small thing that went well today?",
	"What has been taking up most of your thoughts lately?",
	"Who made you feel a little lighter this week?",
	"What would you like to let go of before tomorrow?",
	"What is something you are looking forward to?",
	"When did you feel most like yourself recently?",
	"What is one kind thing you could say to yourself right now?",
	"What is weighing on you, and what part of it is yours to carry?",
	"What did you learn about yourself this week?",
	"What helps you feel calm when things get busy?",
	"What is a worry you can set down for tonight?",
	"What are you proud of, even if it seems small?",
	"Where did you find a moment of rest today?",
	"What do you need more of this week, and less of?",
}

// dayNumber counts days since 1970-01-01 for the local date of t.
func dayNumber(local time.Time) int {
	y, m, d := local.Date()
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// Line is the rotating line of a local date.
func Line(local time.Time) string { return lines[dayNumber(local)%len(lines)] }

// PromptOfDay is the journaling prompt of a local date (the dashboard's promptOfDay).
func PromptOfDay(local time.Time) string { return journalPrompts[dayNumber(local)%len(journalPrompts)] }

// pushTitle is the title of every push reminder.
const pushTitle = "A moment for you"

// reminderMail is the e-mail of one reminder, plain text and HTML, with the one-click
// unsubscribe headers of RFC 8058.
func reminderMail(to, name, checkinURL, unsubscribeURL string, local time.Time) mail.Message {
	greeting := "Hi,"
	if first := strings.Fields(name); len(first) > 0 {
		greeting = "Hi " + first[0] + ","
	}
	line, prompt := Line(local), PromptOfDay(local)
	text := fmt.Sprintf("%s\n\n%s\n\nToday's prompt: %s\n\nCheck in here: %s\n\n— Percolate\n\n"+
		"You get this because you asked for reminders. Stop reminder e-mails: %s\n",
		greeting, line, prompt, checkinURL, unsubscribeURL)
	e := html.EscapeString
	body := fmt.Sprintf(`<!doctype html><html><body style="background:#FBF6EF;color:#2B1D14;font-family:Inter,Arial,sans-serif;font-size:16px;line-height:1.6">
<div style="max-width:480px;margin:0 auto;padding:24px">
<p>%s</p>
<p>%s</p>
<p style="font-family:Fraunces,Georgia,serif;font-size:18px">Today's prompt: %s</p>
<p><a href="%s" style="background:#6F4E37;color:#FFFDF9;padding:10px 18px;border-radius:8px;text-decoration:none">Check in</a></p>
<p>— Percolate</p>
<p style="color:#7A6555;font-size:14px">You get this because you asked for reminders. <a href="%s" style="color:#6F4E37">Stop reminder e-mails</a></p>
</div></body></html>`, e(greeting), e(line), e(prompt), e(checkinURL), e(unsubscribeURL))
	return mail.Message{
		To: to, Subject: "A moment for you", Text: text, HTML: body,
		Headers: map[string]string{
			"List-Unsubscribe":      "<" + unsubscribeURL + ">",
			"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
		},
	}
}
