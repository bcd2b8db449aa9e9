package article

import (
	"bufio"
	"io"
	"strconv"
)

// WriteElements writes the article's text length on a line, then a line
// per element in document order: its XPath, start and end offsets,
// tab-separated (readsim inspect).
func (a *Article) WriteElements(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	line := strconv.AppendInt(nil, int64(a.Len), 10)
	bw.Write(append(line, '\n'))
	a.EachXPath(func(i int, xpath []byte) {
		el := &a.Elements[i]
		line = append(append(line[:0], xpath...), '\t')
		line = strconv.AppendInt(line, int64(el.Start), 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(el.End), 10)
		bw.Write(append(line, '\n'))
	})
	return bw.Flush()
}
