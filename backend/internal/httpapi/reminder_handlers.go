package httpapi

import (
	"context"
	"html"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/reminders"
	"github.com/percolate/percolate/gen/api"
)

// weekdays are the contract's day names by time.Weekday.
var weekdays = [7]api.Weekday{api.Sun, api.Mon, api.Tue, api.Wed, api.Thu, api.Fri, api.Sat}

// callerReminders answers the caller's reminder settings as get reads or saves them, with the
// caller's devices.
func (s *Server) callerReminders(ctx context.Context, get func(userID uuid.UUID) (reminders.Settings, error)) (api.Reminders, error) {
	c, err := caller(ctx)
	if err != nil {
		return api.Reminders{}, err
	}
	set, err := get(c.UserID)
	if err != nil {
		return api.Reminders{}, err
	}
	devs, err := s.deps.Reminders.Devices(ctx, c.UserID)
	if err != nil {
		return api.Reminders{}, err
	}
	key, err := s.deps.Reminders.VAPIDPublicKey(ctx)
	if err != nil {
		return api.Reminders{}, err
	}
	out := api.Reminders{
		Days: []api.Weekday{}, Time: set.Time, TimeZone: set.TimeZone, Email: set.Email, Push: set.Push,
		NextDue: set.NextDue, Devices: make([]api.PushDevice, 0, len(devs)), VapidPublicKey: key,
	}
	// Monday first, as the profile lists them.
	for _, w := range []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday} {
		if set.Days.Has(w) {
			out.Days = append(out.Days, weekdays[w])
		}
	}
	for _, d := range devs {
		out.Devices = append(out.Devices, api.PushDevice{Id: d.ID, Device: d.Name, CreatedAt: d.CreatedAt})
	}
	return out, nil
}

// GetReminders returns the caller's reminder settings and devices.
func (s *Server) GetReminders(ctx context.Context, _ api.GetRemindersRequestObject) (api.GetRemindersResponseObject, error) {
	out, err := s.callerReminders(ctx, func(uid uuid.UUID) (reminders.Settings, error) { return s.deps.Reminders.Get(ctx, uid) })
	if err != nil {
		return nil, err
	}
	return api.GetReminders200JSONResponse(out), nil
}

// UpdateReminders saves the caller's reminder settings.
func (s *Server) UpdateReminders(ctx context.Context, req api.UpdateRemindersRequestObject) (api.UpdateRemindersResponseObject, error) {
	in := reminders.Settings{Time: req.Body.Time, TimeZone: req.Body.TimeZone, Email: req.Body.Email, Push: req.Body.Push}
	for _, d := range req.Body.Days {
		for w, name := range weekdays {
			if name == d {
				in.Days |= 1 << w
			}
		}
	}
	out, err := s.callerReminders(ctx, func(uid uuid.UUID) (reminders.Settings, error) { return s.deps.Reminders.Save(ctx, uid, in) })
	if err != nil {
		return nil, err
	}
	return api.UpdateReminders200JSONResponse(out), nil
}

// AddPushSubscription stores this device's push subscription.
func (s *Server) AddPushSubscription(ctx context.Context, req api.AddPushSubscriptionRequestObject) (api.AddPushSubscriptionResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	sub := reminders.Subscription{Endpoint: req.Body.Endpoint, P256dh: req.Body.Keys.P256dh, Auth: req.Body.Keys.Auth}
	if req.Body.Device != nil {
		sub.Device = *req.Body.Device
	}
	d, err := s.deps.Reminders.Subscribe(ctx, c.UserID, sub)
	if err != nil {
		return nil, err
	}
	return api.AddPushSubscription201JSONResponse{Id: d.ID, Device: d.Name, CreatedAt: d.CreatedAt}, nil
}

// DeletePushSubscription removes one of the caller's devices.
func (s *Server) DeletePushSubscription(ctx context.Context, req api.DeletePushSubscriptionRequestObject) (api.DeletePushSubscriptionResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.deps.Reminders.Unsubscribe(ctx, c.UserID, req.SubscriptionId); err != nil {
		return nil, err
	}
	return api.DeletePushSubscription204Response{}, nil
}

// unsubscribeHTML is the small page of the unsubscribe link, in the brand's colours.
func unsubscribeHTML(body string) api.UnsubscribePage200TexthtmlResponse {
	page := `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
		`<title>Reminder e-mails · Percolate</title></head>` +
		`<body style="background:#FBF6EF;color:#2B1D14;font-family:Inter,Arial,sans-serif;font-size:16px;line-height:1.6">` +
		`<main style="max-width:480px;margin:0 auto;padding:24px"><h1 style="font-family:Fraunces,Georgia,serif">Reminder e-mails</h1>` +
		body + `</main></body></html>`
	return api.UnsubscribePage200TexthtmlResponse{Body: strings.NewReader(page), ContentLength: int64(len(page))}
}

// UnsubscribePage shows the button of the unsubscribe link; opening it changes nothing.
func (s *Server) UnsubscribePage(ctx context.Context, req api.UnsubscribePageRequestObject) (api.UnsubscribePageResponseObject, error) {
	if _, err := s.deps.Reminders.CheckToken(ctx, req.Params.Token); err != nil {
		return nil, err
	}
	action := "/api/public/reminders/unsubscribe?token=" + html.EscapeString(req.Params.Token)
	return unsubscribeHTML(`<p>Would you like to stop reminder e-mails? You can turn them on again on your profile at any time.</p>` +
		`<form method="post" action="` + action + `"><input type="hidden" name="List-Unsubscribe" value="One-Click">` +
		`<button type="submit" style="background:#6F4E37;color:#FFFDF9;border:0;padding:10px 18px;border-radius:8px;font-size:16px">Stop reminder e-mails</button></form>`), nil
}

// UnsubscribeReminders turns e-mail reminders off for the user the signed token names (RFC 8058).
func (s *Server) UnsubscribeReminders(ctx context.Context, req api.UnsubscribeRemindersRequestObject) (api.UnsubscribeRemindersResponseObject, error) {
	if err := s.deps.Reminders.UnsubscribeEmail(ctx, req.Params.Token); err != nil {
		return nil, err
	}
	return api.UnsubscribeReminders200TexthtmlResponse(unsubscribeHTML(
		`<p>Done. You won't get reminder e-mails any more. You can turn them on again on your profile whenever you like.</p>`)), nil
}
