package testenv

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// FreePort is a port of 127.0.0.1 nothing listens on, for a server a test
// starts itself. It is taken below the kernel's ephemeral range: a port
// from there (what ":0" gives) can be handed to another test's connection
// before the server binds it, which failed CI once.
func FreePort(t testing.TB) int {
	t.Helper()
	lo := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 21000 {
				lo = n
			}
		}
	}
	for range 200 {
		p := 20000 + rand.IntN(lo-20000)
		if l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p)); err == nil {
			l.Close()
			return p
		}
	}
	t.Fatal("no free port below the ephemeral range")
	return 0
}
