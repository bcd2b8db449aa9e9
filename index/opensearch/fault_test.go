package opensearch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// manyDocs returns n documents over a small vocabulary, for fault tests.
func manyDocs(n int, payload string) []Doc {
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa")
	docs := make([]Doc, n)
	for i := range docs {
		var text []string
		for j := 0; j < 5+i%17; j++ {
			text = append(text, words[(i*7+j*3)%len(words)])
		}
		docs[i] = Doc{ID: fmt.Sprintf("doc%05d", i), Lang: "en", Title: []string{words[i%len(words)]},
			Text: text, Payload: []byte(payload + ":" + strconv.Itoa(i))}
	}
	return docs
}

// TestDown checks that a cluster that refuses connections, or accepts them
// and never answers, gives an error naming its URL within the timeout.
func TestDown(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusing := "http://" + closed.Addr().String()
	closed.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			conn, err := silent.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn) // held open, never answered
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	cases := []struct {
		name string
		url  string
	}{
		{"refused", refusing},
		{"silent", "http://" + silent.Addr().String()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(Config{URLs: []string{tc.url}, Timeout: 3 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			start := time.Now()
			_, err = c.Open(context.Background(), "readsim")
			took := time.Since(start)
			if err == nil || !strings.Contains(err.Error(), tc.url) || !errors.Is(err, ErrUnreachable) {
				t.Errorf("error %v: want ErrUnreachable naming %s", err, tc.url)
			}
			if took > 5*time.Second {
				t.Errorf("the error took %v, over the 3 s timeout", took)
			}
		})
	}
}
