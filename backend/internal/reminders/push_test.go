package reminders

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/hkdf"

	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// device is a browser's side of a push subscription: its P-256 key pair and auth secret.
type device struct {
	priv *ecdh.PrivateKey
	auth []byte
}

func newDevice(t *testing.T) device {
	t.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return device{priv: priv, auth: auth}
}

func (d device) keys() (p256dh, auth string) {
	return base64.RawURLEncoding.EncodeToString(d.priv.PublicKey().Bytes()), base64.RawURLEncoding.EncodeToString(d.auth)
}

// decrypt opens an aes128gcm message (RFC 8188) encrypted for this device (RFC 8291).
func (d device) decrypt(t *testing.T, body []byte) []byte {
	t.Helper()
	if len(body) < 21 {
		t.Fatalf("body of %d bytes", len(body))
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	asPublic, ciphertext := body[21:21+idlen], body[21+idlen:]
	if rs < 18 || len(ciphertext) > int(rs) {
		t.Fatalf("record size %d for %d bytes of ciphertext (one record expected)", rs, len(ciphertext))
	}
	peer, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		t.Fatalf("application server key: %v", err)
	}
	secret, err := d.priv.ECDH(peer)
	if err != nil {
		t.Fatal(err)
	}
	read := func(r io.Reader, n int) []byte {
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	// RFC 8291 §3.3–3.4: IKM from the ECDH secret and the auth secret, then CEK and nonce.
	keyInfo := append(append([]byte("WebPush: info\x00"), d.priv.PublicKey().Bytes()...), asPublic...)
	ikm := read(hkdf.New(sha256.New, secret, d.auth, keyInfo), 32)
	cek := read(hkdf.New(sha256.New, ikm, salt, []byte("Content-Encoding: aes128gcm\x00")), 16)
	nonce := read(hkdf.New(sha256.New, ikm, salt, []byte("Content-Encoding: nonce\x00")), 12)
	block, err := aes.NewCipher(cek)
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		t.Fatalf("decrypt: %v", err)
	}
	// The last record ends with the delimiter 0x02 and zero padding.
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		t.Fatalf("no last-record delimiter")
	}
	return plain[:len(plain)-1]
}

// pushService is a local RFC 8030 push endpoint: it keeps what it receives and answers status.
type pushService struct {
	mu       sync.Mutex
	status   int
	bodies   [][]byte
	headers  []http.Header
	requests int
}

func (p *pushService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	p.bodies = append(p.bodies, body)
	p.headers = append(p.headers, r.Header.Clone())
	w.WriteHeader(p.status)
}

// A push reminder reaches the device encrypted with its keys (decrypted here with the
// device's private key), signed with the VAPID key the client was given; a push service
// that answers 410 has lost the subscription, which is then deleted.
func TestPushReminderDecryptsAndGoneSubscriptionIsDeleted(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	ps := &pushService{status: http.StatusCreated}
	srv := httptest.NewTLSServer(ps)
	defer srv.Close()
	q := queuetest.New(t, st)
	s := newService(t, st, q, &outbox{}, Config{HTTPClient: srv.Client(), Subscriber: "support@percolate.test"})
	u := pgtest.User(t, st, "USER")
	dev := newDevice(t)
	p256dh, auth := dev.keys()
	d, err := s.Subscribe(ctx, u.ID, Subscription{Endpoint: srv.URL + "/push/abc", P256dh: p256dh, Auth: auth, Device: "Chrome on Android"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Subscribe(ctx, u.ID, Subscription{Endpoint: "http://insecure.test/x", P256dh: p256dh, Auth: auth}); err == nil {
		t.Error("an http endpoint was accepted")
	}
	if _, err := s.Save(ctx, u.ID, Settings{Days: everyDay, Time: "08:00", TimeZone: "Europe/London", Push: true}); err != nil {
		t.Fatal(err)
	}
	slot := time.Date(2026, 6, 1, 7, 0, 0, 0, time.UTC) // 08:00 BST on a Monday
	if err := s.sendPush(ctx, PushArgs{UserID: u.ID, Slot: slot}); err != nil {
		t.Fatal(err)
	}
	if ps.requests != 1 {
		t.Fatalf("%d push requests, want 1", ps.requests)
	}
	h := ps.headers[0]
	if h.Get("Content-Encoding") != "aes128gcm" || h.Get("TTL") == "" {
		t.Errorf("headers: %v", h)
	}
	key, _ := s.VAPIDPublicKey(ctx)
	if a := h.Get("Authorization"); !strings.HasPrefix(a, "vapid t=") || !strings.Contains(a, "k="+key) {
		t.Errorf("Authorization %q does not carry the VAPID key the client got", a)
	}
	var got PushPayload
	if err := json.Unmarshal(dev.decrypt(t, ps.bodies[0]), &got); err != nil {
		t.Fatal(err)
	}
	local := slot.In(zone(t, "Europe/London"))
	want := PushPayload{Title: "A moment for you", Body: Line(local) + " " + PromptOfDay(local), URL: "/dashboard#checkin"}
	if got != want {
		t.Fatalf("payload %+v, want %+v", got, want)
	}

	ps.status = http.StatusGone
	if err := s.sendPush(ctx, PushArgs{UserID: u.ID, Slot: slot.Add(24 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if devs, err := s.Devices(ctx, u.ID); err != nil || len(devs) != 0 {
		t.Fatalf("after 410 the devices are %v (%v), want none (had %s)", devs, err, d.ID)
	}
}

// 404 from the push service deletes the subscription too; a 500 keeps it.
func TestPushNotFoundDeletesServerErrorKeeps(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	ps := &pushService{status: http.StatusInternalServerError}
	srv := httptest.NewTLSServer(ps)
	defer srv.Close()
	s := newService(t, st, queuetest.New(t, st), &outbox{}, Config{HTTPClient: srv.Client(), Subscriber: "support@percolate.test"})
	u := pgtest.User(t, st, "USER")
	p256dh, auth := newDevice(t).keys()
	if _, err := s.Subscribe(ctx, u.ID, Subscription{Endpoint: srv.URL + "/push/1", P256dh: p256dh, Auth: auth}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, u.ID, Settings{Days: everyDay, Time: "08:00", TimeZone: "UTC", Push: true}); err != nil {
		t.Fatal(err)
	}
	_ = s.sendPush(ctx, PushArgs{UserID: u.ID, Slot: time.Now()})
	if devs, _ := s.Devices(ctx, u.ID); len(devs) != 1 {
		t.Fatalf("a 500 removed the device")
	}
	ps.status = http.StatusNotFound
	_ = s.sendPush(ctx, PushArgs{UserID: u.ID, Slot: time.Now()})
	if devs, _ := s.Devices(ctx, u.ID); len(devs) != 0 {
		t.Fatalf("a 404 kept the device")
	}
}

func TestAFailedSendIsLoggedWithoutTheEndpoint(t *testing.T) {
	err := &url.Error{Op: "Post", URL: "https://push.example/send/secret-token", Err: errors.New("connection refused")}
	got := withoutURL(fmt.Errorf("send: %w", err)).Error()
	if strings.Contains(got, "secret-token") || !strings.Contains(got, "connection refused") {
		t.Fatalf("withoutURL = %q, want the cause without the endpoint", got)
	}
}
