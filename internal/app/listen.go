package app

import (
	"fmt"
	"math"
	"net"
	"strings"

	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/web"
)

// CheckAddr refuses a listen address that is not host:port (the host may
// be empty, for every interface; the port a number from 0 to 65535 or a
// service name), before anything is read or listened on: a
// scenario.RequestError naming --addr.
func CheckAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err == nil && strings.ContainsAny(host, " \t/\\") {
		err = fmt.Errorf("host %q is not a host name or an address", host)
	}
	if err == nil {
		_, err = net.LookupPort("tcp", port)
	}
	if err != nil {
		return &scenario.RequestError{Err: fmt.Errorf("--addr %q: want host:port, such as localhost:8080 or :8080 (%v)", addr, err)}
	}
	return nil
}

// SetClientRules sets, checked, what a person gives of the server's
// clients: the request rate per client address (serve's --rate-limit,
// requests per second; 0: no limit) and the reverse proxies whose
// X-Forwarded-For names the client (--trusted-proxy, a CIDR or an
// address each). Its errors are scenario.RequestErrors naming the flag.
func (l *Listen) SetClientRules(rate float64, proxies []string) error {
	if rate < 0 || math.IsNaN(rate) || math.IsInf(rate, 0) {
		return &scenario.RequestError{Err: fmt.Errorf("--rate-limit must be a number of requests per second, 0 for no limit")}
	}
	for _, v := range proxies {
		n, err := web.ParseTrustedProxy(v)
		if err != nil {
			return &scenario.RequestError{Err: fmt.Errorf("--trusted-proxy: %v", err)}
		}
		l.TrustedProxies = append(l.TrustedProxies, n)
	}
	l.RatePerSecond = rate
	if rate == 0 {
		l.RatePerSecond = -1 // below 0, no limit
	}
	return nil
}
