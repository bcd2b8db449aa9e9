package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/readsim/readsim/scenario"
)

// parseDigits reads a number of decimals for tables (--digits): an integer
// from 0 to scenario.MaxDigits.
func parseDigits(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > scenario.MaxDigits {
		return 0, fmt.Errorf("%q: want an integer from 0 to %d", s, scenario.MaxDigits)
	}
	return n, nil
}

// digitsFlag is a number of decimals for tables that reads itself from text
// (parseDigits): the flag.Value of --digits.
type digitsFlag int

// String returns the number.
func (d *digitsFlag) String() string { return strconv.Itoa(int(*d)) }

// Set reads s (parseDigits); out of range, d is left as it was.
func (d *digitsFlag) Set(s string) error {
	n, err := parseDigits(s)
	if err == nil {
		*d = digitsFlag(n)
	}
	return err
}
