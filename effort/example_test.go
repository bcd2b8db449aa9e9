package effort_test

import (
	"fmt"

	"github.com/readsim/readsim/effort"
)

func ExampleParseMeasure() {
	for _, name := range []string{`AgP`, `gP[10]\F(0.25)`, `AgP\T2If(2000)`, `ANCE[100]\LE(300)`, `iP[0.1]`} {
		m, err := effort.ParseMeasure(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(m)
	}
	// Output:
	// AgP\F(0.25)
	// gP[10]\F(0.25)
	// AgP\T2If(2000,1)
	// ANCE[100]\LE(300,5)
	// iP[0.10]
}

func ExampleOrderer_Read() {
	// A 20-character document, relevant [2,5) and [12,15), retrieved [8,13).
	rel := effort.Spans{{Start: 2, End: 5}, {Start: 12, End: 15}}
	ret := effort.Spans{{Start: 8, End: 13}}
	var r effort.Orderer
	for _, s := range r.Read(effort.Best, 20, ret, rel) {
		fmt.Printf("[%d,%d) rel=%v retrieved=%v\n", s.From, s.To, s.Rel, s.Retrieved)
	}
	// Output:
	// [8,12) rel=false retrieved=true
	// [12,13) rel=true retrieved=true
	// [2,5) rel=true retrieved=false
	// [13,15) rel=true retrieved=false
	// [0,2) rel=false retrieved=false
	// [5,8) rel=false retrieved=false
	// [15,20) rel=false retrieved=false
}

func ExampleT2I() {
	// measures.md §3: L=1000, relevant [500,510), retrieved [0,100).
	var r effort.Orderer
	segs := r.Read(effort.Natural, 1000, effort.Spans{{Start: 0, End: 100}}, effort.Spans{{Start: 500, End: 510}})
	for _, x := range []int{500, 501} {
		t := effort.T2I(segs, x)
		fmt.Printf("x=%d: read %d, relevant %d, stop in segment %d at %d\n", x, t.Read, t.RelRead, t.End-1, t.EndAt)
	}
	// Output:
	// x=500: read 500, relevant 0, stop in segment 1 at 500
	// x=501: read 511, relevant 10, stop in segment 3 at 511
}

func ExampleAveChP() {
	// measures.md §4: 55 characters, relevant [0,27), retrieved [23,45).
	rel := effort.Spans{{Start: 0, End: 27}}
	ret := effort.Spans{{Start: 23, End: 45}}
	var r effort.Orderer
	d := &effort.Doc{NRC: 27, RetLen: ret.Len(), RetRel: effort.IntersectLen(ret, rel), Segs: r.Read(effort.Natural, 55, ret, rel)}
	fmt.Printf("aveChP %.4f F(1) %.4f\n", effort.AveChP(d), effort.F(d, 1))
	// Output: aveChP 0.5306 F(1) 0.1633
}

func ExampleANCE() {
	// measures.md §6: ES = ⟨1,2,5,1,5⟩, Trel = 3, NR = 5.
	fmt.Printf("%.2f\n", effort.ANCE([]float64{1, 2, 5, 1, 5}, 3, 5, 5))
	// Output: 2.88
}
