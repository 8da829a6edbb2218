package pgtest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/percolate/percolate/backend/internal/store"
)

// Gate stands between a store and PostgreSQL, so a test can take the database away and bring
// it back on the same address, as a restart of the database does: Close cuts every connection
// and refuses new ones, Open accepts them again.
type Gate struct {
	t       testing.TB
	addr    string
	network string // of the database
	target  string
	mu      sync.Mutex
	ln      net.Listener
	conns   []net.Conn
}

// Through opens a store on the database at dbURL through a new, open Gate. Both are closed at
// the end of the test.
func Through(t testing.TB, dbURL string) (*store.Store, *Gate) {
	t.Helper()
	cc, err := pgconn.ParseConfig(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	g := &Gate{t: t, addr: "127.0.0.1:0", network: "tcp", target: net.JoinHostPort(cc.Host, fmt.Sprint(cc.Port))}
	if strings.HasPrefix(cc.Host, "/") { // a socket directory, as the built-in cluster has
		g.network, g.target = "unix", filepath.Join(cc.Host, fmt.Sprintf(".s.PGSQL.%d", cc.Port))
	}
	g.Open()
	g.addr = g.ln.Addr().String()
	t.Cleanup(g.Close)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Del("host")
	u.Host, u.RawQuery = g.addr, q.Encode()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st, g
}

// Open accepts connections again, on the gate's address.
func (g *Gate) Open() {
	g.t.Helper()
	ln, err := net.Listen("tcp", g.addr)
	if err != nil {
		g.t.Fatal(err)
	}
	g.mu.Lock()
	g.ln = ln
	g.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial(g.network, g.target)
			if err != nil {
				c.Close()
				continue
			}
			g.mu.Lock()
			g.conns = append(g.conns, c, up)
			g.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
}

// Close cuts every connection and refuses new ones, as a database host that went down does.
func (g *Gate) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ln != nil {
		g.ln.Close()
	}
	for _, c := range g.conns {
		c.Close()
	}
	g.conns = nil
}
