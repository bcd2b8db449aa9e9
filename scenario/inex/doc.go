// Package inex is readsim's one home of INEX files (formats.md): it reads
// and writes judgments (FOL qrels, and trec_eval's 4-column qrels), runs
// (FOL passages, TREC documents, INEX XML submissions; WriteRun) and topic
// files (INEX 2009–2010 and 2006–2008 XML, plain text; OpenTopics), and
// the files of the other collections judged by passages (span.go): the TREC
// 2007 Genomics gold standard and runs, span judgments of any collection
// and document lengths,
// gzip-compressed or not, with LF or CRLF line ends, from a file or standard
// input ("-"), and validates them. Every problem is an *Error naming the
// file, the line and what is wrong; every input has a documented limit
// (MaxLineBytes, MaxLength, MaxRank, MaxTopicsBytes).
//
// It imports effort (spans) and index/article (ISO-8859-1 decoding) only.
package inex
