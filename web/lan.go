package web

import (
	"fmt"
	"io"
	"net"

	"github.com/mdp/qrterminal/v3"
)

// LANIP is the first private (else any non-loopback) IPv4 address of an
// interface that is up, or "": the address to give phones on the same
// network. It reads the interfaces only: no traffic.
func LANIP() string {
	ifs, err := net.Interfaces()
	if err != nil {
		return ""
	}
	var other string
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.To4() == nil || ipn.IP.IsLoopback() || ipn.IP.IsLinkLocalUnicast() {
				continue
			}
			if ipn.IP.IsPrivate() {
				return ipn.IP.String()
			}
			if other == "" {
				other = ipn.IP.String()
			}
		}
	}
	return other
}

// PrintURLs writes to w the URLs of a server listening on a: "local: URL"
// (http://localhost:PORT/ on loopback or all interfaces), and for a
// server on all interfaces "LAN:   URL" with LANIP (or why there is
// none). With qr (the demo), the QR code of the URL a phone opens follows:
// the LAN URL, or the local one when the server listens on one address
// that is not loopback; none on loopback.
func PrintURLs(w io.Writer, a net.Addr, qr bool) {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		fmt.Fprintf(w, "http://%s/\n", a)
		return
	}
	port := ta.Port
	local := fmt.Sprintf("http://localhost:%d/", port)
	if !ta.IP.IsUnspecified() && !ta.IP.IsLoopback() {
		local = fmt.Sprintf("http://%s/", net.JoinHostPort(ta.IP.String(), fmt.Sprint(port)))
	}
	fmt.Fprintf(w, "local: %s\n", local)
	if !ta.IP.IsUnspecified() {
		if qr && !ta.IP.IsLoopback() {
			printQR(w, local)
		}
		return
	}
	lan := LANIP()
	if lan == "" {
		fmt.Fprintln(w, "LAN:   (no network interface besides loopback)")
		return
	}
	u := fmt.Sprintf("http://%s/", net.JoinHostPort(lan, fmt.Sprint(port)))
	fmt.Fprintf(w, "LAN:   %s\n", u)
	if qr {
		printQR(w, u)
	}
}

// printQR draws the QR code of u on w, with a line saying what it is for.
func printQR(w io.Writer, u string) {
	fmt.Fprintln(w, "Scan to open it on a phone on the same network:")
	qrterminal.GenerateHalfBlock(u, qrterminal.L, w)
}
