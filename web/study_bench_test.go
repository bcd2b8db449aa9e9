package web

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkStudyBatch: one batch of 64 read events (a participant's
// minute or so of scrolling), checked, appended and fsynced.
func BenchmarkStudyBatch(b *testing.B) {
	s, err := New(Options{Pages: &fakePages{}, RatePerSecond: -1,
		Study: &StudyOptions{Dir: b.TempDir(), Topics: studyTopics, MaxRecordingBytes: 1 << 40}})
	if err != nil {
		b.Fatal(err)
	}
	c := consent(b, s)
	if w := post(s, c, `{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0},{"ev":"open","topic":"T1","doc":"101","seq":2,"t":0}]}`); w.Code != 200 {
		b.Fatal(w.Code, w.Body)
	}
	seq := 3
	b.ReportAllocs()
	for b.Loop() {
		var evs []string
		for k := 0; k < 64; k++ {
			evs = append(evs, fmt.Sprintf(`{"ev":"read","topic":"T1","doc":"101","seq":%d,"t":%d,"from":%d,"to":%d}`, seq, seq, k, k+20))
			seq++
		}
		if w := post(s, c, `{"events":[`+strings.Join(evs, ",")+`]}`); w.Code != 200 {
			b.Fatal(w.Code, w.Body)
		}
	}
}
