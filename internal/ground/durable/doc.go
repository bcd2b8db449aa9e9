// Package durable writes files and folders so that a crash or a power loss
// leaves either the old version or the new one, never a part: a file is
// written beside its place, synced, then renamed over it, and the folder
// holding it is synced (Write, WriteFile). A command's output file
// (WriteOutput), the index (its manifest and statistics, the swap of a
// build) and the reading study (participants' keys) use it: it is the one
// way readsim writes a file whole. A program ended by a signal removes
// the temporary files still being written (RemoveTempFiles). Only a
// regular file is ever replaced: a command's output that is a FIFO, a
// device or a socket is written into as a stream (WriteOutput, Stream).
// A log of lines grows by Append: one write, synced, cut back when it
// fails. It knows nothing of readsim.
package durable
