package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"net/textproto"
	"net/url"
	"time"

	"github.com/atlanta-restoration/site/failure"
)

// SMTP sends mail through one server, as SMTP_URL names it. smtp:// talks
// plain SMTP and upgrades with STARTTLS whenever the server offers it;
// smtps:// is TLS from the first byte. Credentials go out with AUTH PLAIN,
// which net/smtp refuses on an unencrypted connection to anything but
// localhost: a password never crosses the network in clear.
type SMTP struct {
	Host     string // as in the URL; the TLS server name
	Port     string
	Implicit bool // smtps://
	User     string
	Password string
	// HelloName is sent with EHLO (the site's host name).
	HelloName string
	// TLS is the TLS configuration (tests trust their own certificate);
	// nil uses the system roots with Host as the server name.
	TLS *tls.Config
	// Dial opens the connection (tests); nil dials TCP.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Timeout bounds one whole conversation.
	Timeout time.Duration
}

// ParseSMTPURL reads smtp://user:pass@host:port or smtps://... The port
// defaults to 587 (smtp) or 465 (smtps). Errors never quote the URL: it
// carries a password.
func ParseSMTPURL(raw string) (*SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, errors.New("SMTP_URL must look like smtp://user:password@host:587")
	}
	c := &SMTP{Host: u.Hostname(), Port: u.Port(), Implicit: u.Scheme == "smtps", Timeout: 30 * time.Second}
	if c.Port == "" {
		c.Port = "587"
		if c.Implicit {
			c.Port = "465"
		}
	}
	if u.User != nil {
		c.User = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	return c, nil
}

// Send delivers msg (a complete message with CRLF line ends) from from to
// every address of to.
func (c *SMTP) Send(ctx context.Context, from string, to []string, msg []byte) error {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	dial := c.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	conn, err := dial(ctx, "tcp", net.JoinHostPort(c.Host, c.Port))
	if err != nil {
		return failure.At(failure.Email, fmt.Errorf("connect: %w", err))
	}
	// The deadline bounds every read and write; cancelling ctx (shutdown)
	// closes the connection.
	dl, _ := ctx.Deadline()
	conn.SetDeadline(dl)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	tlsConfig := c.TLS.Clone()
	if tlsConfig == nil {
		tlsConfig = &tls.Config{}
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName = c.Host
	}
	if c.Implicit {
		tc := tls.Client(conn, tlsConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return failure.At(failure.Email, fmt.Errorf("tls: %w", err))
		}
		conn = tc
	}
	cl, err := smtp.NewClient(conn, c.Host)
	if err != nil {
		conn.Close()
		return failure.At(failure.Email, failure.SMTPAt(failure.SMTPGreeting, err))
	}
	defer cl.Close()
	if err := c.converse(cl, tlsConfig, from, to, msg); err != nil {
		return err
	}
	// The message is accepted once DATA is; a failed QUIT changes nothing.
	cl.Quit()
	return nil
}

func (c *SMTP) converse(cl *smtp.Client, tlsConfig *tls.Config, from string, to []string, msg []byte) error {
	if c.HelloName != "" {
		if err := cl.Hello(c.HelloName); err != nil {
			return failure.At(failure.Email, failure.SMTPAt(failure.SMTPHello, err))
		}
	}
	if !c.Implicit {
		if ok, _ := cl.Extension("STARTTLS"); ok {
			if err := cl.StartTLS(tlsConfig); err != nil {
				return failure.At(failure.Email, failure.SMTPAt(failure.SMTPStartTLS, err))
			}
		}
	}
	if c.User != "" {
		if err := cl.Auth(smtp.PlainAuth("", c.User, c.Password, c.Host)); err != nil {
			return failure.At(failure.Email, failure.SMTPAt(failure.SMTPAuth, err))
		}
	}
	if err := cl.Mail(from); err != nil {
		return failure.At(failure.Email, failure.SMTPAt(failure.SMTPMail, err))
	}
	for _, r := range to {
		if err := cl.Rcpt(r); err != nil {
			return failure.At(failure.Email, failure.SMTPAt(failure.SMTPRcpt, fmt.Errorf("%s: %w", r, err)))
		}
	}
	w, err := cl.Data()
	if err != nil {
		return failure.At(failure.Email, failure.SMTPAt(failure.SMTPData, err))
	}
	if _, err := w.Write(msg); err != nil {
		w.Close()
		return failure.At(failure.Email, failure.SMTPAt(failure.SMTPData, err))
	}
	if err := w.Close(); err != nil {
		return failure.At(failure.Email, failure.SMTPAt(failure.SMTPData, err))
	}
	return nil
}

// smtpPermanent reports a 5xx reply: the server refuses, and will go on
// refusing until someone changes something (credentials, an address).
func smtpPermanent(err error) bool {
	var te *textproto.Error
	return errors.As(err, &te) && te.Code >= 500
}
