// Command rawserve is the benchmark's reference point: plain net/http
// writing fixed bytes, the ceiling for any Go server on this machine.
//
//	rawserve ADDR BODY [HEADERS]
//
// With HEADERS (a response header block as curl -D saves it), every
// response also carries those headers, copied onto each response the way
// the site's cached path copies its own: the ceiling for a Go server that
// sends the site's security, caching and encoding headers.
package main

import (
	"bufio"
	"bytes"
	"net/http"
	"net/textproto"
	"os"
	"strconv"
)

func main() {
	b, err := os.ReadFile(os.Args[2])
	if err != nil {
		panic(err)
	}
	extra := http.Header{}
	if len(os.Args) > 3 {
		raw, err := os.ReadFile(os.Args[3])
		if err != nil {
			panic(err)
		}
		tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw)))
		if _, err := tp.ReadLine(); err != nil { // the status line
			panic(err)
		}
		h, err := tp.ReadMIMEHeader()
		if err != nil && len(h) == 0 {
			panic(err)
		}
		for k, v := range h {
			if k != "Date" && k != "Content-Length" {
				extra[k] = v
			}
		}
	}
	extra["Content-Type"] = []string{"text/html; charset=utf-8"}
	extra["Content-Encoding"] = []string{"gzip"}
	cl := []string{strconv.Itoa(len(b))}
	panic(http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range extra {
			h[k] = v
		}
		h["Content-Length"] = cl
		w.Write(b)
	})))
}
