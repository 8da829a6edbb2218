package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/export"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/reminders"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
)

// Reminders over HTTP: settings saved and read back, every bad field named, a device
// subscribed, listed, exported without its keys and removed only by its owner, and the
// one-click unsubscribe link that needs no sign-in.
func TestRemindersOverHTTP(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	svc := reminders.New(st, queuetest.New(t, st), noMail{}, reminders.Config{PublicURL: testPublicURL})
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Reminders: svc, Export: export.New(st)})
	c := apiClient(t, h, "192.0.2.7")
	u := pgtest.User(t, st, "USER")
	other := pgtest.User(t, st, "USER")
	auth, otherAuth := bearer("token-"+u.ID.String()), bearer("token-"+other.ID.String())

	got, err := c.GetRemindersWithResponse(ctx, auth)
	wantStatus(t, got, err, http.StatusOK)
	if r := got.JSON200; r.Email || r.Push || len(r.Days) != 0 || r.TimeZone != "" || r.NextDue != nil || r.VapidPublicKey == "" {
		t.Fatalf("before saving: %+v", r)
	}
	if key, err := base64.RawURLEncoding.DecodeString(got.JSON200.VapidPublicKey); err != nil || len(key) != 65 {
		t.Errorf("VAPID key %q is not an uncompressed P-256 point", got.JSON200.VapidPublicKey)
	}

	for field, body := range map[string]api.ReminderSettings{
		"time":     {Days: []api.Weekday{api.Mon}, Time: "7pm", TimeZone: "Europe/London", Email: true},
		"timeZone": {Days: []api.Weekday{api.Mon}, Time: "19:00", TimeZone: "Europe/Narnia", Email: true},
	} {
		bad, err := c.UpdateRemindersWithResponse(ctx, body, auth)
		wantStatus(t, bad, err, http.StatusBadRequest)
		if bad.JSON400.Details[field] == "" {
			t.Errorf("%s: 400 does not name it: %s", field, bad.Body)
		}
	}
	saved, err := c.UpdateRemindersWithResponse(ctx, api.ReminderSettings{
		Days: []api.Weekday{api.Sun, api.Mon, api.Fri}, Time: "19:30", TimeZone: "America/Los_Angeles", Email: true, Push: true,
	}, auth)
	wantStatus(t, saved, err, http.StatusOK)
	if r := saved.JSON200; strings.Join(weekdayNames(r.Days), ",") != "mon,fri,sun" || r.Time != "19:30" || r.TimeZone != "America/Los_Angeles" || r.NextDue == nil {
		t.Fatalf("saved: %+v", r)
	}

	p256dh := base64.RawURLEncoding.EncodeToString(append([]byte{4}, bytes.Repeat([]byte{7}, 64)...))
	sub := api.PushSubscriptionRequest{Endpoint: "https://push.example/abc", Device: new("Firefox on Linux")}
	sub.Keys.P256dh, sub.Keys.Auth = p256dh, base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{1}, 16))
	added, err := c.AddPushSubscriptionWithResponse(ctx, sub, auth)
	wantStatus(t, added, err, http.StatusCreated)
	sub.Keys.Auth = "short"
	badSub, err := c.AddPushSubscriptionWithResponse(ctx, sub, auth)
	wantStatus(t, badSub, err, http.StatusBadRequest)
	if badSub.JSON400.Details["keys.auth"] == "" {
		t.Errorf("bad auth key: %s", badSub.Body)
	}
	listed, err := c.GetRemindersWithResponse(ctx, auth)
	wantStatus(t, listed, err, http.StatusOK)
	if d := listed.JSON200.Devices; len(d) != 1 || d[0].Device != "Firefox on Linux" || d[0].Id != added.JSON201.Id {
		t.Fatalf("devices: %+v", d)
	}

	// The export holds the settings and the device's name, never its endpoint or keys.
	exp, err := c.ExportDataWithResponse(ctx, auth)
	wantStatus(t, exp, err, http.StatusOK)
	var doc struct {
		Reminders struct {
			Days        []string `json:"days"`
			TimeZone    string   `json:"timeZone"`
			PushDevices []struct {
				Device string `json:"device"`
			} `json:"pushDevices"`
		} `json:"reminders"`
	}
	raw := exportedJSON(t, exp.Body, &doc)
	if r := doc.Reminders; strings.Join(r.Days, ",") != "sun,mon,fri" || r.TimeZone != "America/Los_Angeles" || len(r.PushDevices) != 1 || r.PushDevices[0].Device != "Firefox on Linux" {
		t.Errorf("exported reminders: %+v", r)
	}
	for _, secret := range []string{"push.example", p256dh} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the export holds %q", secret)
		}
	}

	gone, err := c.DeletePushSubscriptionWithResponse(ctx, added.JSON201.Id, otherAuth)
	wantStatus(t, gone, err, http.StatusNotFound)
	del, err := c.DeletePushSubscriptionWithResponse(ctx, added.JSON201.Id, auth)
	wantStatus(t, del, err, http.StatusNoContent)

	// One-click unsubscribe: the page changes nothing, the POST of RFC 8058 turns e-mail off.
	link, err := svc.UnsubscribeURL(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimPrefix(link, testPublicURL)
	page := serve(h, http.MethodGet, path, "")
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), "Stop reminder e-mails") {
		t.Fatalf("page: %d %s", page.Code, page.Body)
	}
	if r, _ := svc.Get(ctx, u.ID); !r.Email {
		t.Fatal("opening the link turned e-mail off")
	}
	tok, _ := url.ParseQuery(strings.SplitN(path, "?", 2)[1])
	forged := []byte(tok.Get("token"))
	forged[3] ^= 2
	if bad := serve(h, http.MethodPost, "/api/public/reminders/unsubscribe?token="+string(forged), "List-Unsubscribe=One-Click"); bad.Code != http.StatusBadRequest || !strings.Contains(bad.Body.String(), `"token"`) {
		t.Fatalf("forged token: %d %s", bad.Code, bad.Body)
	}
	if ok := serve(h, http.MethodPost, path, "List-Unsubscribe=One-Click"); ok.Code != http.StatusOK {
		t.Fatalf("one-click: %d %s", ok.Code, ok.Body)
	}
	after, err := c.GetRemindersWithResponse(ctx, auth)
	wantStatus(t, after, err, http.StatusOK)
	if r := after.JSON200; r.Email || !r.Push {
		t.Fatalf("after unsubscribe: email %v push %v", r.Email, r.Push)
	}

	// Deleting the account deletes its reminders and devices.
	sub.Keys.Auth = base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{1}, 16))
	if again, err := c.AddPushSubscriptionWithResponse(ctx, sub, auth); err != nil || again.StatusCode() != http.StatusCreated {
		t.Fatalf("subscribe again: %v", err)
	}
	if _, err := st.Queries().DeleteUser(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := st.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM reminders WHERE user_id = $1) + (SELECT count(*) FROM push_subscriptions WHERE user_id = $1)`, u.ID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d reminder rows left after deletion (%v)", left, err)
	}
}

func weekdayNames(days []api.Weekday) []string {
	out := make([]string, len(days))
	for i, d := range days {
		out[i] = string(d)
	}
	return out
}

// serve sends one raw request (a form body when body is not empty) to h.
func serve(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	r.RemoteAddr = "192.0.2.8:1234"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}
