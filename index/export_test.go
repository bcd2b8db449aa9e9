package index

// PlainMapping is the plain Bleve baseline's mapping (plainMapping), for
// the side-by-side benchmark of package index_test.
var PlainMapping = plainMapping
