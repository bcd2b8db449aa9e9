package main

import (
	"bufio"
	"flag"
	"fmt"
	"strconv"
)

func runInspect(e *env, fs *flag.FlagSet, args []string) error {
	af := addArticleFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want exactly one article file"}
	}
	rd, err := af.reader(e, "inspect", "")
	if err != nil {
		return err
	}
	a, err := rd.ParseFile(pos[0])
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	fmt.Fprintln(w, a.Len)
	var line []byte
	a.EachXPath(func(i int, xpath []byte) {
		el := &a.Elements[i]
		line = append(append(line[:0], xpath...), '\t')
		line = strconv.AppendInt(line, int64(el.Start), 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(el.End), 10)
		w.Write(append(line, '\n'))
	})
	return w.Flush()
}
