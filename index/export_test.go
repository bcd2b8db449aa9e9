package index

// PlainMapping is the plain Bleve baseline's mapping (plainMapping), for
// the side-by-side benchmark of package index_test.
var PlainMapping = plainMapping

// XMLFiles, DirSize and Pct are the benchmarks' helpers xmlFiles,
// dirSize and pct.
var (
	XMLFiles = xmlFiles
	DirSize  = dirSize
	Pct      = pct
)
