package render

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// An infobox's parameters are shown as rows with readable labels, in an
// order that groups them as Wikipedia's infobox templates do, technical
// parameters hidden (docs/articles.md, "Templates and infoboxes"). The
// article's order is kept on the page (data-o never decreases): CSS places
// the rows (the parameter table is a grid, each row's cells carry its
// order).

// ibRow is how one template parameter is shown.
type ibRow struct {
	label  string // the readable label ("" for the second of a pair)
	hidden bool   // a technical parameter: class rs-ibh, hidden
	pair   uint8  // 1: its value labels the next parameter's (rs-ibl); 2: that next one (rs-ibv)
	order  uint8  // 0 to 9: its group (ibGroups), class rs-oN
}

// Pairs of parameters where the first's value is the label of the
// second's ("established_event1 = Constitution", "established_date1 = 1
// January 1901" is the row "Constitution: 1 January 1901"): the last word
// of the first's name and of the second's, the rest of the names equal.
var (
	pairLabels = map[string]bool{"title": true, "event": true, "type": true, "label": true, "header": true}
	pairValues = map[string]bool{"name": true, "date": true, "value": true, "data": true, "info": true}
)

// technical matches the names (words joined by spaces, lower case, numbers
// cut off) of parameters that only tell a template how to draw the box:
// images and their settings, coordinates' parts, codes, styles.
var technical = regexp.MustCompile(`^(image|img|logo|flag|coat of arms|symbol|seal|signature|pushpin|map|blank|module|embed|child|subbox|onlysourced)( .*)?$` +
	`|(^| )(size|width|height|upright|alt|alt text|style|color|colour|class|align|float|bgcolor|border)$` +
	`|^(lat|long|lon)( ?(d|m|s|ns|ew|deg|min|sec|dir|degrees|minutes|seconds|direction))?$|^(latns|longew|coor|coord|coordinates) (type|region|display|format|scale|source)$` +
	`|^(iso|fips|gnis|geonames|unlocode|nuts|geocode|loc|osm)( .*)?$|^iso\d`)

// ibLabels are the readable labels of frequent parameter names (words
// joined by spaces, lower case, numbers cut off).
var ibLabels = map[string]string{
	"conventional long name": "Official name", "native name": "Native name", "other name": "Other names",
	"other names": "Other names", "nickname": "Nickname", "motto": "Motto", "anthem": "Anthem",
	"national anthem": "National anthem", "government type": "Government", "sovereignty type": "Sovereignty",
	"area km2": "Area (km²)", "area sq mi": "Area (sq mi)", "area mi2": "Area (sq mi)", "percent water": "Water (%)",
	"population estimate": "Population (estimate)", "population census": "Population (census)",
	"population density km2": "Density (per km²)", "population density sq mi": "Density (per sq mi)",
	"gdp ppp": "GDP (PPP)", "gdp nominal": "GDP (nominal)", "gdp ppp per capita": "GDP (PPP) per capita",
	"gdp nominal per capita": "GDP (nominal) per capita", "hdi": "HDI", "gini": "Gini", "cctld": "Internet TLD",
	"utc offset": "Time zone (UTC)", "utc offset dst": "Summer time (UTC)", "time zone dst": "Summer time",
	"drives on": "Drives on", "calling code": "Calling code", "birth date": "Born", "birth place": "Place of birth",
	"death date": "Died", "death place": "Place of death", "birth name": "Birth name", "years active": "Years active",
	"known for": "Known for", "alma mater": "Alma mater", "demonym": "Demonym", "caption": "Image",
	"map caption": "Map", "image caption": "Image", "website": "Website", "url": "Website", "footnotes": "Notes",
}

// ibGroups give a parameter's group by the words of its name, in the
// order of Wikipedia's infobox templates: its name and motto (0), images'
// captions (1), what it is (2), where (3), a person's life (4), anything
// not listed (5), languages and government (6), when it was made (7),
// figures (8), practical facts (9). The first group whose word the name
// holds wins.
var ibGroups = []struct {
	order uint8
	words []string
}{
	{1, []string{"caption"}},
	{0, []string{"long name", "native name", "other name", "nickname", "motto", "anthem", "official name"}},
	{9, []string{"currency", "time zone", "utc", "dst", "drives", "calling", "cctld", "tld", "website", "url", "postal", "area code", "footnote"}},
	{4, []string{"birth", "born", "death", "died", "nationality", "occupation", "spouse", "children", "parents", "education", "alma mater", "known for", "years active", "genre", "instrument"}},
	{8, []string{"area", "population", "density", "gdp", "hdi", "gini", "elevation", "length", "height", "weight", "water", "rank", "budget", "revenue", "employees"}},
	{7, []string{"established", "founded", "founding", "formation", "independence", "sovereignty", "event", "date", "opened", "released"}},
	{6, []string{"language", "demonym", "ethnic", "religion", "government", "leader", "legislature", "upper house", "lower house", "party"}},
	{3, []string{"capital", "largest city", "location", "country", "state", "region", "province", "city", "place", "continent", "subdivision", "coordinates", "seat"}},
	{2, []string{"type", "kind", "class", "status", "classification", "category", "family", "genus", "species"}},
}

// nameWords returns a parameter's name as words joined by spaces, lower
// case (underscores and hyphens as spaces), without a trailing number, and
// that number ("established_date3" → "established date", "3"), unless
// the whole is a name of ibLabels ("area_km2").
func nameWords(name string) (base, num string) {
	w := strings.Join(strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == '-' || unicode.IsSpace(r) }), " ")
	end := len(w)
	for end > 0 && w[end-1] >= '0' && w[end-1] <= '9' {
		end--
	}
	if _, ok := ibLabels[w]; ok || end == 0 {
		return w, ""
	}
	return strings.TrimSpace(w[:end]), w[end:]
}

// readable is the label of a parameter whose name's words are base: a
// label of ibLabels, else the words with a capital letter.
func readable(base string) string {
	if l, ok := ibLabels[base]; ok {
		return l
	}
	if base == "" {
		return ""
	}
	if strings.HasSuffix(base, " caption") {
		return "Image"
	}
	r, n := utf8.DecodeRuneInString(base)
	return string(unicode.ToUpper(r)) + base[n:]
}

// group is the order of a parameter whose name's words are base (ibGroups).
func group(base string) uint8 {
	for _, g := range ibGroups {
		for _, w := range g.words {
			if strings.Contains(base, w) {
				return g.order
			}
		}
	}
	return 5
}

// infobox decides how the parameters of the parameter list p (kTplParams)
// are shown: r.ib of each.
func (r *renderer) infobox(p int) {
	els := r.a.Elements
	var params []int
	for i := p + 1; i < els[p].Next; i = els[i].Next {
		if r.info[i].kind == kTplParam {
			params = append(params, i)
		}
	}
	if r.ib == nil {
		r.ib = make(map[int]ibRow, len(params))
	}
	for k := 0; k < len(params); k++ {
		i := params[k]
		base, num := nameWords(els[i].Name)
		row := ibRow{label: readable(base), order: group(base), hidden: technical.MatchString(base) && !strings.HasSuffix(base, "caption")}
		if (base == "name" || base == "common name") && strings.TrimSpace(r.a.Slice(els[i].Start, els[i].End)) == r.title() {
			row.hidden = true // the article's title again
		}
		if k+1 < len(params) && !row.hidden {
			j := params[k+1]
			b2, n2 := nameWords(els[j].Name)
			pre, last := cutLast(base)
			pre2, last2 := cutLast(b2)
			if n2 == num && pre == pre2 && pairLabels[last] && pairValues[last2] {
				row.pair = 1
				r.ib[i] = row
				row.pair, row.label = 2, ""
				r.ib[j] = row
				k++
				continue
			}
		}
		r.ib[i] = row
	}
}

// cutLast splits words at their last space: "established event" →
// "established", "event".
func cutLast(words string) (string, string) {
	if i := strings.LastIndexByte(words, ' '); i >= 0 {
		return words[:i], words[i+1:]
	}
	return "", words
}

// ibClass returns the classes of template parameter i: its order, and
// rs-ibh (hidden), rs-ibl or rs-ibv (a pair's label and value).
func (r *renderer) ibClass(i int) string {
	row := r.ib[i]
	c := "rs-o" + string(rune('0'+row.order))
	switch {
	case row.hidden:
		c += " rs-ibh"
	case row.pair == 1:
		c += " rs-ibl"
	case row.pair == 2:
		c += " rs-ibv"
	}
	return c
}
