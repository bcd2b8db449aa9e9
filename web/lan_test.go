package web

import (
	"bytes"
	"net"
	"strings"
	"testing"
)

func TestPrintURLs(t *testing.T) {
	for _, tc := range []struct {
		addr     net.Addr
		qr       bool
		want     []string
		wantNone []string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, false, []string{"local: http://localhost:8080/\n"}, []string{"LAN:", "Scan"}},
		// loopback: no QR code even for the demo (no phone can open it)
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, true, []string{"local: http://localhost:8080/\n"}, []string{"LAN:", "Scan"}},
		// all interfaces: the LAN line, whatever the machine's interfaces
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8081}, false, []string{"local: http://localhost:8081/\n", "LAN:   "}, []string{"Scan"}},
		{&net.TCPAddr{IP: net.IPv4(192, 168, 1, 20), Port: 9000}, true, []string{"local: http://192.168.1.20:9000/\n", "Scan to open it on a phone", "█"}, []string{"LAN:"}},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 9000}, false, []string{"local: http://[2001:db8::1]:9000/\n"}, []string{"LAN:", "Scan"}},
		{&net.UnixAddr{Name: "sock", Net: "unix"}, false, []string{"http://sock/\n"}, []string{"local:"}},
	} {
		var out bytes.Buffer
		PrintURLs(&out, tc.addr, tc.qr)
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v (qr %v): %q lacks %q", tc.addr, tc.qr, out.String(), w)
			}
		}
		for _, w := range tc.wantNone {
			if strings.Contains(out.String(), w) {
				t.Errorf("%v (qr %v): %q holds %q", tc.addr, tc.qr, out.String(), w)
			}
		}
	}
}
