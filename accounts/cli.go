package accounts

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/atlanta-restoration/site/db"
)

// CLI is `site user ...`: accounts are created and repaired from the
// command line, where the first admin cannot be created any other way.
type CLI struct {
	Store *db.Store
	In    io.Reader // passwords, one per line, when not a terminal
	Out   io.Writer
	Err   io.Writer
	// ReadPassword, when set, reads a password from the terminal without
	// echo (the prompt already written). Nil reads lines from In.
	ReadPassword func() (string, error)

	lines *bufio.Reader
}

// Usage is the `site user` help.
const Usage = `usage:
  site user add --email EMAIL --role admin|staff [--name NAME]
  site user list
  site user passwd --email EMAIL
  site user disable --email EMAIL
  site user enable --email EMAIL
  site user role --email EMAIL --role admin|staff
  site user unlock --email EMAIL
  site user reset-2fa --email EMAIL

unlock clears the account's failed sign-ins (so does passwd), for a
browser that never signed in to it while strangers guess at the email.
reset-2fa removes the account's authenticator and recovery codes and
ends its sessions (a lost phone): it enrols again at the next sign-in.

Passwords are read from standard input: typed twice (not shown) on a
terminal, or one line when piped. They need at least 12 characters and
must not be a common password.`

// Run runs one `site user` command and returns the process exit code.
func (c *CLI) Run(ctx context.Context, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(c.Err, Usage)
		return 2
	}
	fs := flag.NewFlagSet("site user "+args[0], flag.ContinueOnError)
	fs.SetOutput(c.Err)
	email := fs.String("email", "", "the account's email")
	role := fs.String("role", "", "admin, staff or editor")
	name := fs.String("name", "", "the account's display name")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(c.Err, "unexpected argument %q\n%s\n", fs.Arg(0), Usage)
		return 2
	}
	var err error
	switch args[0] {
	case "add":
		err = c.add(ctx, *email, *role, *name)
	case "list":
		err = c.list(ctx)
	case "passwd":
		err = c.passwd(ctx, *email)
	case "disable", "enable":
		err = c.setDisabled(ctx, *email, args[0] == "disable")
	case "role":
		err = c.role(ctx, *email, *role)
	case "unlock":
		err = c.unlock(ctx, *email)
	case "reset-2fa":
		err = c.resetTOTP(ctx, *email)
	case "help", "-h", "--help":
		fmt.Fprintln(c.Out, Usage)
		return 0
	default:
		fmt.Fprintf(c.Err, "unknown command %q\n%s\n", args[0], Usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(c.Err, "error:", err)
		return 1
	}
	return 0
}

// password asks for a new password: twice on a terminal, once piped.
func (c *CLI) password(email, name string) (string, error) {
	read := func(prompt string) (string, error) {
		if c.ReadPassword != nil {
			fmt.Fprint(c.Err, prompt)
			pw, err := c.ReadPassword()
			fmt.Fprintln(c.Err)
			return pw, err
		}
		if c.lines == nil {
			c.lines = bufio.NewReader(c.In)
		}
		line, err := c.lines.ReadString('\n')
		if err != nil && !(errors.Is(err, io.EOF) && line != "") {
			return "", errors.New("no password on standard input")
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	pw, err := read("Password: ")
	if err != nil {
		return "", err
	}
	if err := CheckPassword(pw, email, name); err != nil {
		return "", err
	}
	if c.ReadPassword != nil {
		again, err := read("Repeat the password: ")
		if err != nil {
			return "", err
		}
		if again != pw {
			return "", errors.New("the passwords do not match")
		}
	}
	return HashPassword(pw)
}

func (c *CLI) add(ctx context.Context, email, role, name string) error {
	e, err := NormalizeEmail(email)
	if err != nil {
		return fmt.Errorf("--email: %w", err)
	}
	if err := CheckRole(role); err != nil {
		return fmt.Errorf("--role: %w", err)
	}
	name = strings.TrimSpace(name)
	if err := CheckName(name); err != nil {
		return fmt.Errorf("--name: %w", err)
	}
	hash, err := c.password(e, name)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	u := db.User{ID: uuid.NewString(), Email: e, Name: name, PasswordHash: hash, CreatedAt: now, UpdatedAt: now, Roles: []string{role}}
	if err := c.Store.CreateUser(ctx, u); errors.Is(err, db.ErrDuplicate) {
		return fmt.Errorf("an account with the email %s already exists (use `site user passwd` or `site user role`)", e)
	} else if err != nil {
		return err
	}
	c.audit(ctx, db.AuditUserCreated, fmt.Sprintf("%s (%s)", e, role))
	fmt.Fprintf(c.Out, "Created %s account %s.\n", role, e)
	return nil
}

func (c *CLI) list(ctx context.Context) error {
	us, err := c.Store.ListUsers(ctx)
	if err != nil {
		return err
	}
	if len(us) == 0 {
		fmt.Fprintln(c.Out, "No accounts yet. Create the first admin with: site user add --email EMAIL --role admin")
		return nil
	}
	tw := tabwriter.NewWriter(c.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EMAIL\tNAME\tROLE\tSTATUS\tLAST SIGN-IN")
	for _, u := range us {
		status, last := "active", "never"
		if u.DisabledAt != nil {
			status = "disabled"
		}
		if u.LastLoginAt != nil {
			last = u.LastLoginAt.UTC().Format("2006-01-02 15:04 UTC")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", u.Email, u.Name, strings.Join(u.Roles, ","), status, last)
	}
	return tw.Flush()
}

func (c *CLI) find(ctx context.Context, email string) (db.User, error) {
	if strings.TrimSpace(email) == "" {
		return db.User{}, errors.New("--email is required")
	}
	u, err := c.Store.UserByEmail(ctx, email)
	if errors.Is(err, db.ErrNotFound) {
		return u, fmt.Errorf("no account with the email %s", strings.ToLower(strings.TrimSpace(email)))
	}
	return u, err
}

func (c *CLI) change(ctx context.Context, u db.User, ch db.UserChange, what string) error {
	_, err := c.Store.ChangeUser(ctx, u.ID, ch, time.Now().UTC())
	if errors.Is(err, db.ErrLastAdmin) {
		return errors.New("the last admin cannot be disabled or demoted: make another account admin first")
	}
	if err != nil {
		return err
	}
	c.audit(ctx, db.AuditUserUpdated, u.Email+": "+what)
	return nil
}

func (c *CLI) passwd(ctx context.Context, email string) error {
	u, err := c.find(ctx, email)
	if err != nil {
		return err
	}
	hash, err := c.password(u.Email, u.Name)
	if err != nil {
		return err
	}
	if err := c.change(ctx, u, db.UserChange{PasswordHash: &hash}, "password reset"); err != nil {
		return err
	}
	fmt.Fprintf(c.Out, "Password changed for %s; its sessions and failed sign-ins were cleared.\n", u.Email)
	return nil
}

func (c *CLI) resetTOTP(ctx context.Context, email string) error {
	u, err := c.find(ctx, email)
	if err != nil {
		return err
	}
	if err := c.Store.ResetTOTP(ctx, u.ID); err != nil {
		return err
	}
	c.audit(ctx, db.AuditUserUpdated, u.Email+": two-factor authentication reset")
	fmt.Fprintf(c.Out, "Two-factor authentication of %s removed; its sessions were ended. It enrols again at the next sign-in.\n", u.Email)
	return nil
}

func (c *CLI) unlock(ctx context.Context, email string) error {
	u, err := c.find(ctx, email)
	if err != nil {
		return err
	}
	if err := c.change(ctx, u, db.UserChange{Unlock: true}, "sign-in unlocked"); err != nil {
		return err
	}
	fmt.Fprintf(c.Out, "Failed sign-ins of %s cleared.\n", u.Email)
	return nil
}

func (c *CLI) setDisabled(ctx context.Context, email string, disabled bool) error {
	u, err := c.find(ctx, email)
	if err != nil {
		return err
	}
	if err := c.change(ctx, u, db.UserChange{Disabled: &disabled}, fmt.Sprintf("disabled=%t", disabled)); err != nil {
		return err
	}
	if disabled {
		fmt.Fprintf(c.Out, "Disabled %s; its sessions were ended.\n", u.Email)
	} else {
		fmt.Fprintf(c.Out, "Enabled %s.\n", u.Email)
	}
	return nil
}

func (c *CLI) role(ctx context.Context, email, role string) error {
	if err := CheckRole(role); err != nil {
		return fmt.Errorf("--role: %w", err)
	}
	u, err := c.find(ctx, email)
	if err != nil {
		return err
	}
	if err := c.change(ctx, u, db.UserChange{Role: &role}, "role="+role); err != nil {
		return err
	}
	fmt.Fprintf(c.Out, "%s is now %s.\n", u.Email, role)
	return nil
}

// audit records a command-line change like the Users screen's, with the
// actor "command line".
func (c *CLI) audit(ctx context.Context, action, detail string) {
	if err := c.Store.AddAudit(ctx, db.AuditEntry{At: time.Now().UTC(), Actor: "command line", Action: action, Detail: detail}); err != nil {
		fmt.Fprintln(c.Err, "warning: audit log not written:", err)
	}
}
