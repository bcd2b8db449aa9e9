// Package durable writes files and folders so that a crash or a power loss
// leaves either the old version or the new one, never a part: a file is
// written beside its place, synced, then renamed over it, and the folder
// holding it is synced. The index (its manifest and statistics, the swap
// of a build) and the reading study (participants' keys) use it. It knows
// nothing of readsim.
package durable
