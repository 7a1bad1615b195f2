// Command plot draws bench/run's sweep, build time against the number of
// quotes, as an SVG line chart, by hand:
//
//	go run ./bench/plot -i bench/.work/sweep.tsv -o bench/plot.svg
//
// The input is tab-separated with a header line: quotes per page, quotes,
// then one column of seconds per series (textfrag, pasted, textfrag_plain,
// pasted_plain).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"html"
	"math"
	"os"
	"strconv"
	"strings"
)

type series struct {
	name, color string
	dash        bool
	ys          []float64
}

func main() {
	in := flag.String("i", "", "input `TSV` from bench/run")
	out := flag.String("o", "plot.svg", "output `SVG`")
	pages := flag.Int("pages", 0, "pages in each build, for the title")
	flag.Parse()
	xs, ss, err := read(*in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "plot:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, []byte(draw(xs, ss, *pages)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "plot:", err)
		os.Exit(1)
	}
}

var styles = map[string]series{
	"textfrag":       {name: "textfrag (boxes), highlighted", color: "#0969da"},
	"pasted":         {name: "pasted twin, highlighted", color: "#cf222e"},
	"textfrag_plain": {name: "textfrag (boxes), --highlight=false", color: "#0969da", dash: true},
	"pasted_plain":   {name: "pasted twin, --highlight=false", color: "#cf222e", dash: true},
}

func read(name string) ([]float64, []*series, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return nil, nil, fmt.Errorf("%s: empty", name)
	}
	head := strings.Split(sc.Text(), "\t")
	if len(head) < 3 {
		return nil, nil, fmt.Errorf("%s: want quotes per page, quotes and series columns", name)
	}
	var ss []*series
	for _, h := range head[2:] {
		s, ok := styles[h]
		if !ok {
			s = series{name: h, color: "#57606a"}
		}
		ss = append(ss, &s)
	}
	var xs []float64
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != len(head) {
			return nil, nil, fmt.Errorf("%s: %q: want %d columns", name, sc.Text(), len(head))
		}
		var row []float64
		for _, c := range cols[1:] {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %v", name, err)
			}
			row = append(row, v)
		}
		xs = append(xs, row[0])
		for i, s := range ss {
			s.ys = append(s.ys, row[i+1])
		}
	}
	if len(xs) == 0 {
		return nil, nil, fmt.Errorf("%s: no rows", name)
	}
	return xs, ss, sc.Err()
}

// nice returns a round step for about n ticks up to max.
func nice(max float64, n int) float64 {
	if max <= 0 {
		return 1
	}
	raw := max / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// format writes a tick value with as many decimals as the step needs.
func format(v, step float64) string {
	decimals := 0
	for d := step; d < 1 && decimals < 6; d *= 10 {
		if math.Abs(d-math.Round(d)) < 1e-9 {
			break
		}
		decimals++
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

func draw(xs []float64, ss []*series, pages int) string {
	const (
		w, h                     = 840, 440
		left, right, top, bottom = 70, 290, 50, 60
	)
	pw, ph := float64(w-left-right), float64(h-top-bottom)
	xmax, ymax := 0.0, 0.0
	for _, x := range xs {
		xmax = max(xmax, x)
	}
	for _, s := range ss {
		for _, y := range s.ys {
			ymax = max(ymax, y)
		}
	}
	xstep, ystep := nice(xmax, 5), nice(ymax, 5)
	xmax = math.Ceil(xmax/xstep) * xstep
	ymax = math.Ceil(ymax/ystep) * ystep
	if xmax == 0 {
		xmax = 1
	}
	if ymax == 0 {
		ymax = 1
	}
	px := func(x float64) float64 { return left + x/xmax*pw }
	py := func(y float64) float64 { return top + ph - y/ymax*ph }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", w, h)
	title := "textfrag build time against the number of quotes"
	if pages > 0 {
		title += fmt.Sprintf(" (%d pages, -j 2)", pages)
	}
	fmt.Fprintf(&b, `<text x="%d" y="28" font-size="15" font-weight="600" fill="#1f2328">%s</text>`+"\n", left, html.EscapeString(title))
	// Grid and ticks.
	for i := 0; float64(i)*ystep <= ymax+ystep/2; i++ {
		y := float64(i) * ystep
		fmt.Fprintf(&b, `<line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#d0d7de" stroke-width="1"/>`+"\n", left, px(xmax), py(y), py(y))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" fill="#57606a">%s</text>`+"\n", left-8, py(y)+4, format(y, ystep))
	}
	for i := 0; float64(i)*xstep <= xmax+xstep/2; i++ {
		x := float64(i) * xstep
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%.1f" stroke="#eaeef2" stroke-width="1"/>`+"\n", px(x), px(x), top, py(0))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#57606a">%s</text>`+"\n", px(x), py(0)+18, format(x, xstep))
	}
	fmt.Fprintf(&b, `<line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#57606a" stroke-width="1"/>`+"\n", left, px(xmax), py(0), py(0))
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%.1f" stroke="#57606a" stroke-width="1"/>`+"\n", left, left, top, py(0))
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#1f2328">quotes in the site (pages × quotes per page)</text>`+"\n", left+pw/2, h-18)
	fmt.Fprintf(&b, `<text transform="translate(20 %.1f) rotate(-90)" text-anchor="middle" fill="#1f2328">wall time (s), median</text>`+"\n", top+ph/2)
	// Series.
	for i, s := range ss {
		var pts []string
		for j, x := range xs {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(x), py(s.ys[j])))
		}
		dash := ""
		if s.dash {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n", strings.Join(pts, " "), s.color, dash)
		for j, x := range xs {
			fill := s.color
			if s.dash {
				fill = "#ffffff"
			}
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s" stroke="%s" stroke-width="1.5"><title>%s: %s quotes, %.3f s</title></circle>`+"\n",
				px(x), py(s.ys[j]), fill, s.color, html.EscapeString(s.name), format(x, 1), s.ys[j])
		}
		// Legend.
		ly := float64(top + 10 + 22*i)
		lx := float64(w - right + 20)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/>`+"\n", lx, lx+28, ly, ly, s.color, dash)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#1f2328">%s</text>`+"\n", lx+36, ly+4, html.EscapeString(s.name))
	}
	b.WriteString("</svg>\n")
	return b.String()
}
