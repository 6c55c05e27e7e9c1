// A plain SMTP server for the browser tests (no TLS, no sign-in) that
// keeps every message it is given; changed() resolves at the next one.
import net from "node:net";

export function smtpFake() {
  const messages = [];
  const waiters = [];
  const srv = net.createServer((sock) => {
    let buf = "", data = false, msg = { to: [], body: "" };
    const say = (s) => sock.write(s + "\r\n");
    say("220 fake ESMTP");
    sock.on("data", (chunk) => {
      buf += chunk.toString("utf8");
      for (;;) {
        if (data) {
          const end = buf.indexOf("\r\n.\r\n");
          if (end < 0) return;
          msg.body = buf.slice(0, end);
          buf = buf.slice(end + 5);
          data = false;
          messages.push(msg);
          msg = { to: [], body: "" };
          say("250 queued");
          for (const w of waiters.splice(0)) w();
          continue;
        }
        const i = buf.indexOf("\r\n");
        if (i < 0) return;
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === "EHLO" || cmd === "HELO") say("250 fake");
        else if (cmd === "MAIL") say("250 ok");
        else if (cmd === "RCPT") { msg.to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, "$1")); say("250 ok"); }
        else if (cmd === "DATA") { data = true; say("354 go on"); }
        else if (cmd === "QUIT") { say("221 bye"); sock.end(); }
        else say("250 ok");
      }
    });
    sock.on("error", () => {});
  });
  return {
    srv, messages,
    listen: () => new Promise((r) => srv.listen(0, "127.0.0.1", () => r(srv.address().port))),
    changed: () => new Promise((r) => waiters.push(r)),
  };
}

/** decodeQP undoes quoted-printable (the messages' body encoding). */
export const decodeQP = (s) => s.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
