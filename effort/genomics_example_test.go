package effort_test

import (
	"fmt"

	"github.com/readsim/readsim/effort"
)

func ExampleCharAP() {
	// Document d has one relevant passage, [10,20). A run returns [5,15),
	// then [10,20): characters 10–14 come twice and count once.
	gold := []effort.GoldPassage{{Span: effort.Span{Start: 10, End: 20}}}
	rel := effort.Spans{{Start: 10, End: 20}}
	ps := []effort.RankedPassage{
		{ID: "d", Rank: 1, Span: effort.Span{Start: 5, End: 15}, Relevant: true, Gold: gold, Rel: rel},
		{ID: "d", Rank: 2, Span: effort.Span{Start: 10, End: 20}, Relevant: true, Gold: gold, Rel: rel},
	}
	order := effort.NISTOrder(ps, nil)
	// PASSAGE2: (1/6 + 2/7 + 3/8 + 4/9 + 5/10 + 6/11 + … + 10/15) / 10
	fmt.Printf("PASSAGE2 %.4f\n", effort.CharAP(ps, order, 10))
	// PASSAGE: 5 relevant of 10 read, then 15 of 20: (1/2 + 3/4) / 2
	fmt.Printf("PASSAGE  %.4f\n", effort.PassageAP(ps, order, 1))
	// DOCUMENT: one relevant document, first
	fmt.Printf("DOCUMENT %.4f\n", effort.DocumentAP(ps, order, 1))
	// Output:
	// PASSAGE2 0.4826
	// PASSAGE  0.6250
	// DOCUMENT 1.0000
}
