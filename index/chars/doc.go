// Package chars holds what the index knows of a text by characters: the
// byte offset of a character offset (Index: the index and the INEX
// formats count characters, Go strings bytes), the white space after an
// offset, and white space runs made one space (OneSpace, SpaceWriter)
// for snippets and terminal lines.
//
// It imports nothing of readsim's.
package chars
