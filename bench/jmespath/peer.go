// go-jmespath peer: reads a plan, prints "name<TAB>seconds per operation".
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/jmespath/go-jmespath"
)

type planCase struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
	Expr string `json:"expr"`
	Mode string `json:"mode"`
}

func measure(op func()) float64 {
	op()
	start := time.Now()
	op()
	once := time.Since(start).Seconds()
	if once < 1e-7 {
		once = 1e-7
	}
	iterations := int(0.05 / once)
	if iterations < 1 {
		iterations = 1
	}
	samples := make([]float64, 7)
	for s := range samples {
		start = time.Now()
		for i := 0; i < iterations; i++ {
			op()
		}
		samples[s] = time.Since(start).Seconds() / float64(iterations)
	}
	sort.Float64s(samples)
	return samples[3]
}

func main() {
	raw, _ := os.ReadFile(os.Args[1])
	var plan []planCase
	if err := json.Unmarshal(raw, &plan); err != nil {
		panic(err)
	}
	docs := map[string]interface{}{}
	for _, c := range plan {
		if _, ok := docs[c.Doc]; !ok {
			text, _ := os.ReadFile(c.Doc)
			var v interface{}
			if err := json.Unmarshal(text, &v); err != nil {
				panic(err)
			}
			docs[c.Doc] = v
		}
		data := docs[c.Doc]
		expr := c.Expr
		var op func()
		switch c.Mode {
		case "parse":
			op = func() { jmespath.Compile(expr) }
		case "full":
			op = func() { p, _ := jmespath.Compile(expr); p.Search(data) }
		default:
			p, err := jmespath.Compile(expr)
			if err != nil {
				panic(err)
			}
			op = func() { p.Search(data) }
		}
		fmt.Printf("%s\t%.9g\n", c.Name, measure(op))
	}
}
