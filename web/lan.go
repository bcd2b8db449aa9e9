package web

import "net"

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
