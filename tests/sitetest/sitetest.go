// Package sitetest runs the real binary for the tests that need whole
// site processes (tests/cluster, tests/drill, tests/proxy): it builds the binary once
// per test process, starts it on a free port with the environment given,
// waits until it is ready, stops it, and keeps its log for a failure.
package sitetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
)

// Root is the repository's folder, where the binary is built and run:
// the nearest folder above the test's own (go test runs a test in its
// package's folder) that holds go.mod. Not the source file's path, which
// a -trimpath build (make test's) turns into the import path.
var Root = func() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			panic("sitetest: no go.mod above " + dir)
		}
	}
}()

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// Build builds the site's binary, once per test process, and returns its
// path. Its version reads "test". With SITE_BIN set (make test-go sets
// it to the bin/site it has just built) that binary is used instead: the
// packages that start the site would each link it again, about 12
// CPU-s apiece.
func Build(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		if bin := os.Getenv("SITE_BIN"); bin != "" {
			if _, err := os.Stat(bin); err != nil {
				buildErr = fmt.Errorf("SITE_BIN: %w", err)
			}
			binPath = bin
			return
		}
		dir, err := os.MkdirTemp("", "site-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "site")
		cmd := exec.Command("go", "build", "-ldflags", "-X main.version=test -X main.commit=test", "-o", binPath, ".")
		cmd.Dir = Root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// Log is a process's output, safe to read while it is written.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Process is one running site.
type Process struct {
	Name string
	Base string // http://127.0.0.1:PORT
	Cmd  *exec.Cmd
	Log  *Log
	done chan error
}

// Start starts bin (the site, no command) with env on a free port and
// returns at once; the process is killed when the test ends, and its log
// printed if the test failed.
func Start(t testing.TB, bin, name string, env []string) *Process {
	t.Helper()
	return StartOn(t, bin, name, FreePort(t), env)
}

// StartOn is Start on a given port: an instance restarted where a proxy
// in front expects it.
func StartOn(t testing.TB, bin, name string, port int, env []string) *Process {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Dir = Root
	cmd.Env = append(append(os.Environ(), env...), fmt.Sprintf("PORT=%d", port))
	p := &Process{Name: name, Base: fmt.Sprintf("http://127.0.0.1:%d", port), Cmd: cmd, Log: &Log{}, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = p.Log, p.Log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("--- log of %s ---\n%s", name, p.Log.String())
		}
	})
	return p
}

// Done receives the process's exit.
func (p *Process) Done() <-chan error { return p.done }

// WaitReady waits until /healthz?ready=1 answers 200, and fails the test
// if the process exits first or limit passes.
func (p *Process) WaitReady(t testing.TB, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if res, err := http.Get(p.Base + "/healthz?ready=1"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		select {
		case err := <-p.done:
			t.Fatalf("%s exited: %v\n%s", p.Name, err, p.Log.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("%s never became ready:\n%s", p.Name, p.Log.String())
}

// Stop sends SIGTERM and waits for the exit.
func (p *Process) Stop(t testing.TB) {
	t.Helper()
	p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not stop", p.Name)
	}
}

// Run runs a command of bin (`site backup`, `site user add`, ...) to its
// end with env and stdin, and returns its exit code and output.
func Run(t testing.TB, bin string, env []string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = Root
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errw bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errw
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errw.String()
}

// FreePort is a loopback port nothing listens on now.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Do sends one request, with a bearer token, content type and header
// pairs when given, and returns the status and body.
func Do(t testing.TB, method, u, token, ctype string, body io.Reader, hdr ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, u, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// JPEG is a w×h photo whose pixels depend on shade, so that two calls
// with different arguments give different files.
func JPEG(w, h int, shade uint8) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), shade, 255})
		}
	}
	var b bytes.Buffer
	jpeg.Encode(&b, img, nil)
	return b.Bytes()
}

// MultipartFile is a form with data as its "file" field, and its content
// type.
func MultipartFile(name string, data []byte) ([]byte, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	part, _ := mw.CreateFormFile("file", name)
	part.Write(data)
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

// AdminToken makes an admin account with the binary's `user add`, signs
// it in on base, sets up its authenticator (an admin's first sign-in asks
// for one, and the password again) and returns the session's token, which
// the API also takes as a bearer token. Changing System Settings needs
// such a session: the PIN may only read them (ADR 039).
func AdminToken(t testing.TB, bin string, env []string, base, email, password string) string {
	t.Helper()
	if code, out, errs := Run(t, bin, env, password+"\n", "user", "add", "--email", email, "--role", "admin", "--name", "The Owner"); code != 0 {
		t.Fatalf("user add admin: %d %s %s", code, out, errs)
	}
	post := func(path, token string, body any) (int, map[string]any, *http.Response) {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("POST %s: %v", path, err)
		}
		defer res.Body.Close()
		var m map[string]any
		json.NewDecoder(res.Body).Decode(&m)
		return res.StatusCode, m, res
	}
	code, m, res := post("/api/admin/login", "", map[string]string{"email": email, "password": password})
	token := ""
	for _, ck := range res.Cookies() {
		if strings.HasSuffix(ck.Name, "admin_session") {
			token = ck.Value
		}
	}
	if code != http.StatusOK || token == "" || m["stage"] != "enrol" {
		t.Fatalf("admin sign-in: %d %v", code, m)
	}
	code, m, _ = post("/api/admin/2fa/start", token, map[string]string{"password": password})
	secret, _ := m["secret"].(string)
	if code != http.StatusOK || secret == "" {
		t.Fatalf("2fa/start: %d %v", code, m)
	}
	c, err := accounts.TOTPCode(secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if code, m, _ = post("/api/admin/2fa/confirm", token, map[string]string{"code": c}); code != http.StatusOK {
		t.Fatalf("2fa/confirm: %d %v", code, m)
	}
	return token
}
