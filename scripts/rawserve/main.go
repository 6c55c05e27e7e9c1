// Command rawserve is the benchmark's reference point: plain net/http
// writing fixed bytes, the ceiling for any Go server on this machine.
package main

import (
	"net/http"
	"os"
	"strconv"
)

func main() {
	b, err := os.ReadFile(os.Args[2])
	if err != nil {
		panic(err)
	}
	cl := []string{strconv.Itoa(len(b))}
	panic(http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Content-Type"] = []string{"text/html; charset=utf-8"}
		h["Content-Encoding"] = []string{"gzip"}
		h["Content-Length"] = cl
		w.Write(b)
	})))
}
