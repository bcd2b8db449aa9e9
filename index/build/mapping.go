package build

import (
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
)

// newMapping is the articles index's mapping: BM25 scoring. Documents are
// built by hand (Batch.IndexAdvanced) with their tokens computed beforehand,
// so the mapping only carries the scoring model (and the English analyzer
// as its default, which no field uses).
func newMapping() *mapping.IndexMappingImpl {
	im := mapping.NewIndexMapping()
	im.DefaultAnalyzer = en.AnalyzerName
	im.ScoringModel = bindex.BM25Scoring
	im.StoreDynamic = false
	im.IndexDynamic = false
	return im
}
