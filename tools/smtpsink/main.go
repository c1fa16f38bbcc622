// Command smtpsink is a real SMTP server for end-to-end tests: it accepts
// every message on 127.0.0.1 and lists them as JSON over HTTP, so a browser
// test can read the password-reset mail the binary sent.
//
//	go run ./tools/smtpsink -smtp 127.0.0.1:0 -http 127.0.0.1:0
//
// prints "smtp=HOST:PORT http=http://HOST:PORT" on its first line, then
// serves GET /messages -> [{"from","to":[..],"subject","text","html"}].
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"locator/internal/mail/smtptest"
)

type message struct {
	From    string   `json:"from"`
	To      []string `json:"to"`
	Subject string   `json:"subject"`
	Text    string   `json:"text"`
	HTML    string   `json:"html"`
}

func main() {
	httpAddr := flag.String("http", "127.0.0.1:0", "HTTP address of the message list")
	flag.Parse()
	sink, err := smtptest.Start(smtptest.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /messages", func(w http.ResponseWriter, r *http.Request) {
		out := []message{}
		for _, m := range sink.Messages() {
			out = append(out, message{From: m.From, To: m.To, Subject: m.Header("Subject"), Text: m.Part("text/plain"), HTML: m.Part("text/html")})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
	fmt.Printf("smtp=%s http=http://%s\n", sink.Addr(), ln.Addr())
	go func() { log.Fatal(http.Serve(ln, mux)) }()
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	<-c
	sink.Stop()
}
