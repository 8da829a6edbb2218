package httpapi

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ClientIP returns the address of the client that made the request, for rate limits.
func ClientIP(ctx context.Context) string {
	if st := stateFrom(ctx); st != nil {
		return st.clientIP
	}
	return ""
}

// WithClientIP returns ctx carrying a client address (for tests of services that read it).
func WithClientIP(ctx context.Context, ip string) context.Context {
	return withState(ctx, func(st *requestState) { st.clientIP = ip })
}

// clientAddress finds the client's address: the connection's, unless the connection comes
// from a trusted proxy, in which case X-Forwarded-For is read from the right, skipping
// trusted proxies, so a client cannot choose its own address by sending the header.
func clientAddress(trusted []netip.Prefix) func(http.Handler) http.Handler {
	isTrusted := func(a netip.Addr) bool {
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				host = r.RemoteAddr
			}
			ip := host
			if a, err := netip.ParseAddr(host); err == nil && isTrusted(a.Unmap()) {
				hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
				for i := len(hops) - 1; i >= 0; i-- {
					h, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
					if err != nil {
						break
					}
					ip = h.Unmap().String()
					if !isTrusted(h.Unmap()) {
						break
					}
				}
			}
			r, st := requestStateOf(r)
			st.clientIP = ip
			next.ServeHTTP(w, r)
		})
	}
}
